import type { core } from 'zod';
import { CodedError } from '../../coded-error';
import { printable } from '../../contract/storable-text';
import { firstIssue } from '../../zod-issue';

/**
 * What our own code refuses or fails at, as a code from the error table (lib/server/http/error-table.ts) and a
 * sentence, with the field it concerns (our API's name for it: `start_date`, `session`, `body`) and the wait
 * to suggest as structured data. Modules throw these and know nothing of HTTP; the route wrapper turns them
 * into answers.
 */
export type AppErrorCode =
  | 'not_signed_in'
  | 'session_expired'
  | 'session_idle'
  | 'session_revoked'
  | 'foreign_origin'
  | 'forbidden_role'
  | 'not_member'
  | 'account_disabled'
  | 'not_connected'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'unsupported_body'
  | 'invalid_input'
  | 'edit_conflict'
  | 'conflict'
  | 'not_found'
  | 'credentials_refused'
  | 'too_many_attempts'
  | 'too_many_loads'
  | 'store_unavailable'
  | 'shutting_down'
  | 'internal';

const BRAND = Symbol.for('tray-scan-dashboard/AppError');

export class AppError extends CodedError<AppErrorCode> {
  readonly [BRAND] = true;

  /**
   * Recognised by a registered symbol, not by class identity: Next bundles instrumentation.ts apart from the
   * routes, so one process holds two copies of this class, and the one settings store (kept on globalThis so
   * that a single PGlite opens the data directory) is created by whichever bundle comes first.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}

const MAX_FIELD = 160;

/**
 * A zod failure as the AppError every 422 of ours is: the first issue's field (under `prefix` when the value
 * sits inside a larger body), and what is wrong with it.
 */
export function invalidInput(error: core.$ZodError, fallback: string, prefix?: string): AppError {
  const { field, message, unknownKey } = firstIssue(error, fallback);
  // Keys are the sender's text (a crop name, a parameter): a detail echoes a readable part of one, control
  // characters and lone surrogates written as `\u0000`.
  const placed = printable(prefix && field !== fallback ? `${prefix}.${field}` : field);
  const bounded = placed.length > MAX_FIELD ? `${printable(placed.slice(0, MAX_FIELD))}…` : placed;
  return new AppError('invalid_input', unknownKey ? 'unknown parameter' : message, { field: bounded });
}
