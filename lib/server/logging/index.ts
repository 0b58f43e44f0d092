import 'server-only';
import { log, type LogLevel } from './logger';

export type { LogLevel };

/**
 * One JSON line on stdout (lib/server/logging/logger.ts): every log line of the running server goes this way
 * (machines read them, and one stream keeps them in order). Callers pass facts, never a secret, a cookie, a
 * token or a query string.
 */
export function logLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  log(level, msg, fields);
}

/** An unexpected error as log fields: its message and, where there is one, its stack, to find the bug by. */
export function errorFields(error: unknown): { error: string; stack?: string } {
  return error instanceof Error && error.stack
    ? { error: String(error), stack: error.stack }
    : { error: String(error) };
}
