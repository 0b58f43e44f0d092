/**
 * What our own code refuses or fails at, as a code from the error table (lib/server/error-table.ts) and a
 * sentence, with the field it concerns and the wait to suggest as structured data. Modules throw these and
 * know nothing of HTTP; the route wrapper turns them into answers.
 */
export type AppErrorCode =
  | 'not_signed_in'
  | 'session_expired'
  | 'session_idle'
  | 'session_revoked'
  | 'foreign_origin'
  | 'body_too_large'
  | 'unsupported_body'
  | 'invalid_input'
  | 'credentials_refused'
  | 'too_many_attempts'
  | 'store_unavailable'
  | 'internal';

export type AppErrorOptions = {
  /** Our API's name for the field or part of the request at fault (`start_date`, `session`, `body`). */
  field?: string;
  /** How long the client should wait before trying again, in whole seconds. */
  retryAfterS?: number;
  cause?: unknown;
};

export class AppError extends Error {
  readonly field: string | undefined;
  readonly retryAfterS: number | undefined;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.field = options.field;
    this.retryAfterS = options.retryAfterS;
  }
}
