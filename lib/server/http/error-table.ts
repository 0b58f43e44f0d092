import 'server-only';
import {
  BatchApiError,
  type BatchApiErrorCode,
  type ServiceUnavailableError,
  type TimeoutError,
} from '../../batch-api';
import type { Problem } from '../../contract';
import { AppError, type AppErrorCode } from './app-error';
import { errorFields, logLine } from '../logging';

/**
 * Every error our API answers, by code: ours (AppError) and the upstream client's (BatchApiError). The status
 * comes from here and nowhere else. Wording rules for `detail`:
 * 1. A detail that concerns a field starts with it, `field: what is wrong`; the field comes from structured
 *    data (a zod path, the service's `loc`), never from reading a sentence.
 * 2. Fields carry our API's names (the service's `next_token` is our `cursor`).
 * 3. A failure of the Batch Data Service says so first, then what it said.
 * 4. A failure of our own code says only "internal error": nothing of its inside reaches the browser.
 */
export const ERROR_STATUS: Record<AppErrorCode | BatchApiErrorCode, number> = {
  not_signed_in: 401,
  session_expired: 401,
  session_idle: 401,
  session_revoked: 401,
  credentials_refused: 401,
  foreign_origin: 403,
  // A member whose role does not allow this (`role: saving the targets needs the editor role; you are a viewer`).
  forbidden_role: 403,
  // `org=` names an organisation the person is not a member of: its data is never shown instead.
  not_member: 403,
  // The right password of a disabled person: they are told, since only they could know it.
  account_disabled: 403,
  // The organisation has no (readable) client secret yet: an administrator sets it under Connection.
  not_connected: 409,
  // With `Allow` (lib/server/http/methods.ts): a method the route does not serve.
  method_not_allowed: 405,
  body_too_large: 413,
  unsupported_body: 415,
  // A save based on a version someone else has replaced since (the settings' `expectedUpdatedAt`).
  edit_conflict: 409,
  // A write the organisation's stored data cannot take: a saved view's name taken, the most views kept.
  conflict: 409,
  // A saved thing (a view) that this organisation does not have: another organisation's is not found either.
  not_found: 404,
  invalid_input: 422,
  too_many_attempts: 429,
  // With Retry-After: a session or an organisation runs its most range loads at once (lib/server/load-limits/).
  too_many_loads: 429,
  internal: 500,
  store_unavailable: 503,
  // This instance is stopping (SIGTERM): another one, or this one restarted, takes the request.
  shutting_down: 503,
  // The upstream client's codes: `auth_failed` is the organisation's credentials refused by the service (the
  // person's session is fine: an administrator must replace the secret), not our sign-in form's.
  auth_failed: 502,
  token_rejected: 502,
  bad_response: 502,
  unexpected: 502,
  unavailable: 503,
  timeout: 504,
};

/** The service's parameter names where ours differ. */
const OUR_FIELD: Record<string, string> = { next_token: 'cursor' };

const withField = (field: string | undefined, text: string) => (field ? `${field}: ${text}` : text);

/**
 * A refused input in our API's words. The client wrote `field: why` (from a zod path, or as the service
 * did); the field is known from structure, so its name is swapped for ours without reading the sentence.
 */
function inOurWords(error: BatchApiError): string {
  const { field, message } = error;
  if (!field) return message;
  const name = OUR_FIELD[field] ?? field;
  return message.startsWith(`${field}: `) ? name + message.slice(field.length) : withField(name, message);
}

/** Ours, never the service's: what a failure that outlasted the retries was, for people. */
const UNAVAILABLE: Record<string, string> = {
  unavailable: 'it is unavailable right now; try again shortly',
  'rate-limited': 'it is taking fewer requests at once right now; try again shortly',
  gateway: 'a gateway in front of it got no answer from it; try again shortly',
  connection: 'it could not be reached; try again shortly',
};

/**
 * Our own sentence for an upstream failure: built from the error's code, field and the service's own
 * (JSON) sentence, never from a body that was not JSON, nor from the service's paths or status lines, which
 * the error's message carries for the log.
 */
function upstreamDetail(error: BatchApiError): string {
  const said = error.serviceDetail;
  switch (error.code) {
    case 'auth_failed':
      return 'connection: the Batch Data Service refused the organisation’s client credentials; an administrator can replace the secret under Connection';
    case 'token_rejected':
      return 'the Batch Data Service refused an access token it had just issued; try again shortly';
    case 'invalid_input':
      return inOurWords(error);
    case 'unavailable':
      return `Batch Data Service unavailable: ${said ?? UNAVAILABLE[(error as ServiceUnavailableError).kind]}`;
    case 'timeout':
      return `Batch Data Service timed out: no complete answer within ${Math.round((error as TimeoutError).timeoutMs / 1000)} s`;
    case 'bad_response':
      return `Batch Data Service answered something unexpected: ${error.message}`;
    default:
      return `Batch Data Service answered ${error.status ?? 'an error'}${said ? `: ${said}` : ', an error of its own'}`;
  }
}

/** The answer for any error: its status from the table, its sentence, and the wait to suggest. */
export function problemOf(error: unknown): Problem {
  if (error instanceof AppError) {
    return {
      status: ERROR_STATUS[error.code],
      detail: withField(error.field, error.message),
      retryAfterS: error.retryAfterS ?? null,
    };
  }
  if (error instanceof BatchApiError) {
    // The service's Retry-After: 0 is still advised as a wait of at least a second.
    const retryAfterS = error.retryAfterS === undefined ? null : Math.max(1, error.retryAfterS);
    return { status: ERROR_STATUS[error.code], detail: upstreamDetail(error), retryAfterS };
  }
  return { status: ERROR_STATUS.internal, detail: 'internal error', retryAfterS: null };
}

/**
 * problemOf for a failure met while answering: one of our own code (a 500, "internal error" to people) is
 * logged as `msg` with `fields` and the error's message and stack, for whoever has to find the bug.
 */
export function loggedProblemOf(error: unknown, msg: string, fields: Record<string, unknown> = {}): Problem {
  const problem = problemOf(error);
  if (problem.status === ERROR_STATUS.internal) logLine('error', msg, { ...fields, ...errorFields(error) });
  return problem;
}

/** `{detail}` with the status, never cached, and Retry-After from the problem's number. */
export function problemResponse(problem: Problem): Response {
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (problem.retryAfterS !== null) headers['retry-after'] = String(problem.retryAfterS);
  return Response.json({ detail: problem.detail }, { status: problem.status, headers });
}
