import 'server-only';
import pino, { type Logger } from 'pino';

/** The levels our code writes at; `LOG_LEVEL` may also be `debug` or `silent`. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'fatal';

const LEVELS = new Set(['debug', 'info', 'warn', 'error', 'fatal', 'silent']);

/**
 * Field names whose values never reach a log line, wherever a caller puts them: a defence behind the rule that
 * callers pass facts, not secrets (pino's redaction, at the top level and one level down).
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'clientSecret',
  'client_secret',
  'password',
  'token',
  'access_token',
  'secret',
];

/**
 * pino writing one JSON object per line on stdout: `level` as a word, `time` in ISO 8601, `msg`, then the
 * facts; no pid or host name (the platform knows where a line came from). Lines are written synchronously,
 * through `process.stdout.write` at the moment of the call, so they keep their order with anything else the
 * process prints, and a test can read them by spying on that function.
 */
function createLogger(): Logger {
  const level = process.env.LOG_LEVEL?.toLowerCase() ?? 'info';
  return pino(
    {
      level: LEVELS.has(level) ? level : 'info',
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: SECRET_FIELDS.flatMap((f) => [`["${f}"]`, `*["${f}"]`]), censor: '[redacted]' },
    },
    { write: (line: string) => void process.stdout.write(line) },
  );
}

const holder = globalThis as unknown as { __logger?: Logger };

/** The process's one logger (the custom server and Next's bundle share it). */
export function logger(): Logger {
  holder.__logger ??= createLogger();
  return holder.__logger;
}

/** One line: `msg` and the facts in `fields` (never a secret, a cookie, a token or a query string). */
export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  logger()[level](fields, msg);
}
