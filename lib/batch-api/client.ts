import type { z } from 'zod';
import type { Batch } from '../contract';
import { firstIssue } from '../zod-issue';
import {
  AuthenticationError,
  BadResponseError,
  describeDetail,
  InvalidInputError,
  ServiceUnavailableError,
  UnexpectedError,
} from './errors';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, TransientFailure, withRetries, type RetryPolicy } from './retry';
import {
  BatchListSchema,
  BatchPageSchema,
  BatchQuerySchema,
  TokenResponseSchema,
  type ApiVersion,
  type BatchPage,
  type BatchQuery,
} from './schemas';
import { TokenCache, type CachedToken } from './token-cache';
import { send, type RawResponse, type TransportOptions, type UpstreamCall } from './transport';

export type BatchApiClientOptions = {
  /** Root of the service, e.g. `https://batches.example.com` (a path prefix is kept). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** `v2` (default, paged) or `v1` (flat list, kept for compatibility). */
  version?: ApiVersion;
  /** Injected for tests and instrumentation; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request, headers and body included. Default 15 s. */
  timeoutMs?: number;
  /** Retries of GET after 503 or a dropped connection. */
  retry?: Partial<RetryPolicy>;
  /** Shared between clients so that one token serves every request of an organisation. */
  tokenCache?: TokenCache;
  onCall?: (call: UpstreamCall) => void;
  /** Jitter source, injectable for deterministic tests. */
  random?: () => number;
};

export type RequestOptions = {
  signal?: AbortSignal;
  /** Told before each retry after a 503 or a dropped connection, so a caller running many requests can back off. */
  onRetry?: (retry: { attempt: number; delayMs: number }) => void;
};

/** Tokens without `expires_in` are trusted until the service refuses them; with it, renewed a little early. */
const EXPIRY_SKEW_MS = 5_000;
const MAX_CURSOR_LENGTH = 4096;

/** Client for the Batch Data Service. Options in, typed errors out; no framework inside. */
export class BatchApiClient {
  readonly version: ApiVersion;
  private transport: TransportOptions;
  private retry: RetryPolicy;
  private tokens: TokenCache;
  private tokenKey: string;
  private random: () => number;

  constructor(private options: BatchApiClientOptions) {
    this.version = options.version ?? 'v2';
    this.transport = {
      baseUrl: options.baseUrl,
      fetch: options.fetch ?? globalThis.fetch,
      timeoutMs: options.timeoutMs ?? 15_000,
      onCall: options.onCall,
    };
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.tokens = options.tokenCache ?? new TokenCache();
    this.tokenKey = TokenCache.keyFor({ ...options, version: this.version });
    this.random = options.random ?? Math.random;
  }

  /**
   * Proves the credentials and warms the token cache. `fresh` asks the auth endpoint even when a token is
   * cached (sign-in must not trust a token fetched before the credentials were withdrawn).
   */
  async authenticate(options: { fresh?: boolean } = {}): Promise<void> {
    if (options.fresh) await this.tokens.fetchNew(this.tokenKey, () => this.fetchToken());
    else await this.tokens.get(this.tokenKey, () => this.fetchToken());
  }

  /** One page. With v1 the whole range is one page and `next_token` is null. */
  async page(query: BatchQuery, cursor?: string | null, options: RequestOptions = {}): Promise<BatchPage> {
    const filters = validateQuery(query);
    if (cursor !== undefined && cursor !== null) {
      if (this.version === 'v1') throw new InvalidInputError('cursor: v1 returns everything at once and takes no cursor', { field: 'cursor' });
      if (cursor === '' || cursor.length > MAX_CURSOR_LENGTH) throw new InvalidInputError('cursor: not a cursor this service issued', { field: 'cursor' });
    }
    if (this.version === 'v1') {
      const data = await this.get('/v1/batches', filters, BatchListSchema, options);
      return { data, next_token: null };
    }
    return this.get('/v2/batches', { ...filters, next_token: cursor ?? undefined }, BatchPageSchema, options);
  }

  /** Every page of the range in order, passing each cursor back unchanged (docs/batch-data-service.md#paging). */
  async *pages(query: BatchQuery, options: RequestOptions & { cursor?: string | null } = {}): AsyncGenerator<BatchPage> {
    let cursor = options.cursor ?? null;
    do {
      const page = await this.page(query, cursor, options);
      yield page;
      cursor = page.next_token;
    } while (cursor !== null);
  }

  /** Every batch of the range, in service order. */
  async list(query: BatchQuery, options: RequestOptions = {}): Promise<Batch[]> {
    const all: Batch[] = [];
    for await (const page of this.pages(query, options)) all.push(...page.data);
    return all;
  }

  /** Shared by every waiting caller (single-flight), so no caller's abort signal may cancel it. */
  private async fetchToken(): Promise<CachedToken> {
    const path = `/${this.version}/auth`;
    const form = {
      grant_type: 'client_credentials',
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    };
    const response = await send(this.transport, { method: 'POST', path, form });
    if (response.status === 401) {
      throw new AuthenticationError(describeDetail(safeJson(response.text))?.text ?? 'Invalid client credentials', { status: 401 });
    }
    const token = parseWith(TokenResponseSchema, ensureOk(path, response, {}), 'token response', response.status);
    const expiresAt = token.expires_in
      ? Date.now() + Math.max(token.expires_in * 1000 - EXPIRY_SKEW_MS, (token.expires_in * 1000) / 2)
      : null;
    return { token: token.access_token, expiresAt };
  }

  /**
   * GET with a bearer token, retried as the retry policy says (a 503, a dropped connection). A 401 is met
   * with one new token, once per call: a token refused right after it was issued means the credentials are.
   */
  private async get<S extends z.ZodType>(
    path: string,
    query: Record<string, string | undefined>,
    schema: S,
    { signal, onRetry }: RequestOptions = {},
  ): Promise<z.infer<S>> {
    // The deadline covers the whole call, a token fetched first included.
    const startedAt = Date.now();
    let token = await this.tokens.get(this.tokenKey, () => this.fetchToken());
    let reauthenticated = false;
    const attempt = async (): Promise<z.infer<S>> => {
      for (;;) {
        const response = await this.exchange(path, query, token, signal);
        if (response.status !== 401) return parseWith(schema, ensureOk(path, response, query), 'response', response.status);
        if (reauthenticated) throw new AuthenticationError('The service refused a freshly issued access token', { status: 401 });
        reauthenticated = true;
        token = await this.tokens.renew(this.tokenKey, token, () => this.fetchToken());
      }
    };
    return withRetries(attempt, { policy: this.retry, signal, onRetry, random: this.random, startedAt });
  }

  /** One GET; what is worth another attempt (a 503, a connection that failed or dropped) is a TransientFailure. */
  private async exchange(path: string, query: Record<string, string | undefined>, bearer: string, signal?: AbortSignal): Promise<RawResponse> {
    let response: RawResponse;
    try {
      response = await send(this.transport, { method: 'GET', path, query, bearer, signal });
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw new TransientFailure(error);
      throw error;
    }
    if (response.status !== 503) return response;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    const failure = new ServiceUnavailableError(
      describeDetail(safeJson(response.text))?.text ?? 'The service is unavailable',
      Math.ceil((retryAfterMs ?? this.retry.maxDelayMs) / 1000),
      { status: 503 },
    );
    throw new TransientFailure(failure, retryAfterMs);
  }
}

/**
 * The JSON body of a 2xx answer; every other status (but 401 and 503, which the callers handle) as its typed
 * error. A 422's field comes from structure: the `loc` of the service's detail, or else the parameter of this
 * very request that the detail opens with (`next_token: …`), matched against the names we sent.
 */
function ensureOk(path: string, response: RawResponse, query: Record<string, string | undefined>): unknown {
  const status = response.status;
  if (status >= 200 && status < 300) {
    const body = safeJson(response.text);
    if (body === undefined) throw new BadResponseError(`body: ${path} did not answer valid JSON`, { field: 'body', status });
    return body;
  }
  const detail = describeDetail(safeJson(response.text));
  if (status === 422) {
    const sent = Object.keys(query).filter((name) => query[name] !== undefined);
    const field = detail?.field ?? sent.find((name) => detail?.text.startsWith(`${name}: `));
    throw new InvalidInputError(detail?.text ?? 'The service refused the request as invalid', { field, status });
  }
  if (status === 503) throw new ServiceUnavailableError(detail?.text ?? 'The service is unavailable', 5, { status });
  throw new UnexpectedError(`${path} answered ${status}${detail ? `: ${detail.text}` : ''}`, { status });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string, status: number): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { field, message } = firstIssue(parsed.error, what);
  throw new BadResponseError(`${field}: ${message} (in the service's ${what})`, { field, status });
}

/** Built once: zod compiles a schema on first use, about 0.1 ms, which `.strict()` per call paid every time. */
const StrictBatchQuerySchema = BatchQuerySchema.strict();

function validateQuery(query: BatchQuery): Record<string, string | undefined> {
  const parsed = StrictBatchQuerySchema.safeParse(query);
  if (parsed.success) return parsed.data;
  const { field, message } = firstIssue(parsed.error, 'query');
  throw new InvalidInputError(`${field}: ${message}`, { field });
}
