import { CodedError, type CodedErrorOptions } from '../coded-error';

/**
 * Why an attempt is worth another: the service said it is unavailable (503), asked us to slow down (429), a
 * gateway in front of it failed (502, 504), or the connection was refused, reset or cut short.
 */
export type TransientKind = 'unavailable' | 'rate-limited' | 'gateway' | 'connection';

/** Every failure of the upstream client is one of these; `code` is what callers map to their own answer. */
export type BatchApiErrorCode =
  'auth_failed' | 'token_rejected' | 'invalid_input' | 'unavailable' | 'timeout' | 'bad_response' | 'unexpected';

export type BatchApiErrorOptions = CodedErrorOptions & {
  /** The HTTP status the service answered; undefined when it did not answer or we refused before asking. */
  status?: number;
  /** The service's own sentence from a JSON `detail` (see describeDetail), bounded; never a body that was not JSON. */
  serviceDetail?: string;
};

/**
 * As openai-node's APIError: `status` is the service's own, whatever status our API answers with. The message
 * is for logs (it may name the service's paths and statuses); what people read is built from the code, the
 * field and `serviceDetail`.
 */
export class BatchApiError extends CodedError<BatchApiErrorCode> {
  readonly status: number | undefined;
  readonly serviceDetail: string | undefined;

  constructor(code: BatchApiErrorCode, message: string, options: BatchApiErrorOptions = {}) {
    super(code, message, options);
    this.status = options.status;
    this.serviceDetail = options.serviceDetail;
  }
}

/** The auth endpoint refused the credentials (its 401): the one case where the credentials are wrong. */
export class AuthenticationError extends BatchApiError {
  constructor(message: string, options: BatchApiErrorOptions = {}) {
    super('auth_failed', message, options);
  }
}

/** The service refused a token issued moments before, at once: it misbehaves; the credentials are fine. */
export class TokenRejectedError extends BatchApiError {
  constructor(message: string, options: BatchApiErrorOptions = {}) {
    super('token_rejected', message, options);
  }
}

/** Input refused before any call (our own checks: no `status`) or by the service (422 and its detail). */
export class InvalidInputError extends BatchApiError {
  constructor(message: string, options: BatchApiErrorOptions = {}) {
    super('invalid_input', message, options);
  }
}

/**
 * A transient failure (503, 429, a gateway's 502 or 504, no connection) that outlasted the retry policy.
 * `retryAfterS` is the wait to suggest to people; `kind` says which failure it was.
 */
export class ServiceUnavailableError extends BatchApiError {
  declare readonly retryAfterS: number;
  readonly kind: TransientKind;

  /** The service's own Retry-After, in ms, when it sent one (retryAfterS is advice for people either way). */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    retryAfterS: number,
    options: BatchApiErrorOptions & { kind?: TransientKind; retryAfterMs?: number } = {},
  ) {
    super('unavailable', message, { ...options, retryAfterS });
    this.kind = options.kind ?? 'unavailable';
    this.retryAfterMs = options.retryAfterMs;
  }
}

export class TimeoutError extends BatchApiError {
  constructor(
    message: string,
    readonly timeoutMs: number,
  ) {
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

/** Longest sentence of the service's we pass on: a detail is a sentence, not a document. */
const MAX_DETAIL_CHARS = 240;
const MESSAGE_KEYS = ['msg', 'message', 'error', 'description', 'detail', 'title'] as const;
const FIELD_KEYS = ['field', 'param', 'parameter', 'name'] as const;

const bounded = (text: string) => (text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS - 1)}…` : text);

/** `["query", "start_date"]` -> `start_date`: where a framework says the problem is, without its own prefixes. */
function locField(loc: unknown): string | undefined {
  const path = Array.isArray(loc) ? loc.filter((p) => p !== 'query' && p !== 'body') : [];
  return path.length ? path.join('.') : undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
/** A list of messages, as frameworks that answer by field give each field (Django REST, Rails). */
const messages = (value: unknown): string | undefined =>
  Array.isArray(value) && value.length > 0 && value.every((v) => text(v)) ? value.join(' ') : undefined;

/**
 * One item of a detail, as a sentence: `field: message` when it has a message and names a field; a field map
 * (`{start_date: ["Enter a valid date."]}`) as `field: messages` per field; a bare `code`; otherwise its JSON.
 * An empty message says nothing: the field alone is named as refused.
 */
function describeItem(item: unknown): ServiceDetail {
  if (text(item)) return { text: item as string };
  if (!item || typeof item !== 'object' || Array.isArray(item)) return { text: JSON.stringify(item) };
  const record = item as Record<string, unknown>;
  const message = MESSAGE_KEYS.map((k) => text(record[k])).find((v) => v !== undefined);
  const named = FIELD_KEYS.map((k) => text(record[k])).find((v) => v !== undefined);
  const field = locField(record.loc) ?? named;
  if (message !== undefined) return { text: field ? `${field}: ${message}` : message, field };
  if (field) return { text: `${field}: refused`, field };
  const entries = Object.entries(record);
  if (entries.length === 1 && entries[0]![0] === 'code' && text(entries[0]![1]))
    return { text: entries[0]![1] as string };
  if (entries.length > 0 && entries.every(([, v]) => messages(v) !== undefined)) {
    return { text: entries.map(([k, v]) => `${k}: ${messages(v)}`).join('; '), field: entries[0]![0] };
  }
  return { text: JSON.stringify(item) };
}

/**
 * `detail` may be a string, an object or a list of objects such as `{loc, msg, type}`
 * (docs/batch-data-service.md#errors): each shape becomes one bounded sentence; the field comes from `loc` (or
 * a `field`-like key of the object), never from the text.
 */
export function describeDetail(body: unknown): ServiceDetail | undefined {
  if (!body || typeof body !== 'object' || !('detail' in body)) return undefined;
  const detail = (body as { detail: unknown }).detail;
  if (detail === null || detail === undefined) return undefined;
  const items = (Array.isArray(detail) ? detail : [detail]).map(describeItem);
  if (items.length === 0) return undefined;
  const field = items.find((i) => i.field)?.field;
  return { text: bounded(items.map((i) => i.text).join('; ')), field };
}
