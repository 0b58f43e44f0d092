import { CodedError } from '../coded-error';

/**
 * What our own code refuses or fails at, as a code from the error table (lib/server/error-table.ts) and a
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
  | 'method_not_allowed'
  | 'body_too_large'
  | 'unsupported_body'
  | 'invalid_input'
  | 'credentials_refused'
  | 'too_many_attempts'
  | 'store_unavailable'
  | 'internal';

export class AppError extends CodedError<AppErrorCode> {}
