import 'server-only';
import { format } from 'node:util';
import { errorFields } from '.';
import { log, type LogLevel } from './logger';

const ANSI = /\x1b\[[0-9;]*m/g;

/** console.* as JSON lines: the text as `msg`, without colour codes; an Error given adds `error` and `stack`. */
function lines(level: LogLevel) {
  return (...args: unknown[]) => {
    const error = args.find((a): a is Error => a instanceof Error);
    log(
      level,
      format(...args)
        .replace(ANSI, '')
        .trim(),
      error ? errorFields(error) : {},
    );
  };
}

/**
 * Makes everything the process prints a JSON line on stdout (lib/server/logging/logger.ts): console.log,
 * info, debug, warn and error (Next.js's own messages among them), Node's process warnings (whose default
 * printer writes plain text to stderr), and an exception nothing caught, which ends the process as Node's
 * own handler would. For the production server (server/main.ts), where machines read the output.
 */
export function logConsoleAsJson(): void {
  console.log = lines('info');
  console.info = lines('info');
  console.debug = lines('debug');
  console.warn = lines('warn');
  console.error = lines('error');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log('warn', warning.message, { warning: warning.name }));
  process.on('uncaughtException', (error) => {
    log('fatal', 'uncaught exception: the process stops', errorFields(error));
    process.exit(1);
  });
  // As `next start` does: a promise rejected without a handler is logged, and the server goes on.
  process.on('unhandledRejection', (reason) => log('error', 'unhandled promise rejection', errorFields(reason)));
}
