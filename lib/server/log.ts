import 'server-only';

export type LogLevel = 'info' | 'warn' | 'error';

/**
 * One JSON line on stdout, the only way the server writes to its log: machines read these lines, and one
 * stream keeps them in order. Callers pass facts, never a secret, a cookie, a token or a query string.
 */
export function logLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
}
