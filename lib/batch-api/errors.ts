import { CodedError, type CodedErrorOptions } from '../coded-error';

/** Every failure of the upstream client is one of these; `code` is what callers map to their own answer. */
export type BatchApiErrorCode =
  | 'auth_failed'
  | 'invalid_input'
  | 'unavailable'
  | 'timeout'
  | 'bad_response'
  | 'unexpected';

export type BatchApiErrorOptions = CodedErrorOptions & {
  /** The HTTP status the service answered; undefined when it did not answer or we refused before asking. */
  status?: number;
};

/** As openai-node's APIError: `status` is the service's own, whatever status our API answers with. */
export class BatchApiError extends CodedError<BatchApiErrorCode> {
  readonly status: number | undefined;

  constructor(code: BatchApiErrorCode, message: string, options: BatchApiErrorOptions = {}) {
    super(code, message, options);
    this.status = options.status;
  }
}

/** The auth endpoint refused the credentials, or the service refused a token right after issuing it. */
export class AuthenticationError extends BatchApiError {
  constructor(message: string, options: BatchApiErrorOptions = {}) {
    super('auth_failed', message, options);
  }
}

/** Input refused before any call (our own checks: no `status`) or by the service (422 and its detail). */
export class InvalidInputError extends BatchApiError {
  constructor(message: string, options: BatchApiErrorOptions = {}) {
    super('invalid_input', message, options);
  }
}

/** A 503 or no connection that outlasted the retry policy. `retryAfterS` is the wait to suggest to people. */
export class ServiceUnavailableError extends BatchApiError {
  declare readonly retryAfterS: number;

  constructor(message: string, retryAfterS: number, options: BatchApiErrorOptions = {}) {
    super('unavailable', message, { ...options, retryAfterS });
  }
}

export class TimeoutError extends BatchApiError {
  constructor(message: string) {
    super('timeout', message);
  }
}

/** The service answered 2xx with something that is not what the contract promises; `field` names where. */
export class BadResponseError extends BatchApiError {
  constructor(message: string, options: BatchApiErrorOptions) {
    super('bad_response', message, options);
  }
}

/** Any other status (500 included): not retried, reported with the service's detail. */
export class UnexpectedError extends BatchApiError {
  constructor(message: string, options: BatchApiErrorOptions) {
    super('unexpected', message, options);
  }
}

/** The service's `detail` as one readable sentence, and the field it names when it names one in structure. */
export type ServiceDetail = { text: string; field?: string };

type Located = { loc?: unknown; msg: unknown };
const isLocated = (item: unknown): item is Located => !!item && typeof item === 'object' && 'msg' in item;

/** `["query", "start_date"]` -> `start_date`: where a framework says the problem is, without its own prefixes. */
function fieldOf(item: Located): string | undefined {
  const path = Array.isArray(item.loc) ? item.loc.filter((p) => p !== 'query' && p !== 'body') : [];
  return path.length ? path.join('.') : undefined;
}

/**
 * `detail` may be a string, an object or a list of `{loc, msg, type}` objects (docs/batch-data-service.md#errors):
 * each shape becomes one sentence; the field comes from `loc`, never from the text.
 */
export function describeDetail(body: unknown): ServiceDetail | undefined {
  if (!body || typeof body !== 'object' || !('detail' in body)) return undefined;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return { text: detail };
  if (detail === null || detail === undefined) return undefined;
  const items = Array.isArray(detail) ? detail : isLocated(detail) ? [detail] : null;
  if (!items) return { text: JSON.stringify(detail) };
  let field: string | undefined;
  const text = items
    .map((item) => {
      if (!isLocated(item)) return JSON.stringify(item);
      const where = fieldOf(item);
      field ??= where;
      return where ? `${where}: ${String(item.msg)}` : String(item.msg);
    })
    .join('; ');
  return { text, field };
}
