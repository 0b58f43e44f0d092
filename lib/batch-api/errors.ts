/** Every failure of the upstream client is one of these; `code` is what callers map to a status. */
export type BatchApiErrorCode =
  | 'auth_failed'
  | 'invalid_input'
  | 'unavailable'
  | 'timeout'
  | 'bad_response'
  | 'unexpected';

export class BatchApiError extends Error {
  constructor(
    readonly code: BatchApiErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** 401 from the auth endpoint (wrong client_id or client_secret), or a token refused right after a fresh sign-in. */
export class AuthenticationError extends BatchApiError {
  constructor(message: string, status = 401) {
    super('auth_failed', message, status);
  }
}

/** Input refused before any call (our own checks) or by the service (422 with its detail). */
export class InvalidInputError extends BatchApiError {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super('invalid_input', message, 422);
  }
}

/** 503 (or no connection) that outlasted the retry policy. `retryAfterS` is a hint for the caller. */
export class ServiceUnavailableError extends BatchApiError {
  constructor(
    message: string,
    readonly retryAfterS: number,
    options?: { cause?: unknown },
  ) {
    super('unavailable', message, 503, options);
  }
}

export class TimeoutError extends BatchApiError {
  constructor(message: string) {
    super('timeout', message, 504);
  }
}

/** The service answered 2xx with something that is not what the spec promises. `field` names where. */
export class BadResponseError extends BatchApiError {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super('bad_response', message, 502);
  }
}

/** Any other status (500 included): not retried, reported with the service's detail. */
export class UnexpectedError extends BatchApiError {
  constructor(message: string, status?: number) {
    super('unexpected', message, status);
  }
}

/** The service's `detail` may be a string or an object (spec 7): make it one readable line. */
export function describeDetail(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || !('detail' in body)) return undefined;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item) => {
        if (item && typeof item === 'object' && 'msg' in item) {
          const loc = Array.isArray((item as { loc?: unknown }).loc) ? (item as { loc: unknown[] }).loc : [];
          const field = loc.filter((p) => p !== 'query' && p !== 'body').join('.');
          return field ? `${field}: ${String((item as { msg: unknown }).msg)}` : String((item as { msg: unknown }).msg);
        }
        return JSON.stringify(item);
      })
      .join('; ');
  }
  return detail === null || detail === undefined ? undefined : JSON.stringify(detail);
}
