import { safeParse, strictObject, type core } from 'zod';
import type { Batch } from '../contract';
import { firstIssue } from '../zod-issue';
import type { ConcurrencyGate, GateOutcome } from './adaptive-limit';
import {
  AuthenticationError,
  BadResponseError,
  describeDetail,
  InvalidInputError,
  type ServiceDetail,
  ServiceUnavailableError,
  TimeoutError,
  TokenRejectedError,
  UnexpectedError,
} from './errors';
import { checkBatchList, checkBatchPage } from './fast-batch';
import {
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  TransientFailure,
  withRetries,
  type RetryPolicy,
  type TransientKind,
} from './retry';
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
import { send, type ExchangeSlot, type RawResponse, type TransportOptions, type UpstreamCall } from './transport';

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
  /** Retries of GET after a transient answer: 503, 429, a gateway's 502 or 504, a dropped connection. */
  retry?: Partial<RetryPolicy>;
  /** Shared between clients so that one token serves every request of an organisation. */
  tokenCache?: TokenCache;
  onCall?: (call: UpstreamCall) => void;
  /** Told before each wait for a retry, of every request (RequestOptions.onRetry is one request's). */
  onRetry?: (retry: RetryNotice & { path: string }) => void;
  /** Waited for before each HTTP exchange and given back after it (see ExchangeSlot); none by default. */
  slot?: ExchangeSlot;
  /** Jitter source, injectable for deterministic tests. */
  random?: () => number;
  /** Clock in ms for timing exchanges (told to the gate, see AdaptiveLimit); default performance.now. */
  now?: () => number;
};

export type RequestOptions = {
  signal?: AbortSignal;
  /** Told before each wait for a retry. */
  onRetry?: (retry: RetryNotice) => void;
  /**
   * Held from the request's first exchange to its last (given back only while it waits out a 429) and told
   * how each went: a caller running many requests passes one to adapt how many are in flight (see AdaptiveLimit).
   */
  gate?: ConcurrencyGate;
};

/** A retry about to wait: the attempt that failed, the wait, and why (see TransientKind). */
export type RetryNotice = { attempt: number; delayMs: number; kind: TransientKind };

/** Answers worth another attempt, by status. */
const TRANSIENT: Record<number, TransientKind> = {
  429: 'rate-limited',
  502: 'gateway',
  503: 'unavailable',
  504: 'gateway',
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
  private now: () => number;

  constructor(private options: BatchApiClientOptions) {
    this.version = options.version ?? 'v2';
    this.transport = {
      baseUrl: options.baseUrl,
      fetch: options.fetch ?? globalThis.fetch,
      timeoutMs: options.timeoutMs ?? 15_000,
      onCall: options.onCall,
      slot: options.slot,
    };
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.tokens = options.tokenCache ?? new TokenCache();
    this.tokenKey = TokenCache.keyFor({ ...options, version: this.version });
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Proves the credentials and warms the token cache. `fresh` asks the auth endpoint even when a token is
   * cached (sign-in must not trust a token fetched before the credentials were withdrawn).
   */
  async authenticate(options: { fresh?: boolean } = {}): Promise<void> {
    if (options.fresh) await this.tokens.fetchNew(this.tokenKey, () => this.fetchToken(), { shared: false });
    else await this.tokens.get(this.tokenKey, () => this.fetchToken());
  }

  /** One page. With v1 the whole range is one page and `next_token` is null. */
  async page(query: BatchQuery, cursor?: string | null, options: RequestOptions = {}): Promise<BatchPage> {
    const filters = validateQuery(query);
    if (cursor !== undefined && cursor !== null) {
      if (this.version === 'v1')
        throw new InvalidInputError('cursor: v1 returns everything at once and takes no cursor', { field: 'cursor' });
      if (cursor === '' || cursor.length > MAX_CURSOR_LENGTH)
        throw new InvalidInputError('cursor: not a cursor this service issued', { field: 'cursor' });
    }
    if (this.version === 'v1') {
      const data = await this.get('/v1/batches', filters, BatchListSchema, options, checkBatchList);
      return { data, next_token: null };
    }
    return this.get(
      '/v2/batches',
      { ...filters, next_token: cursor ?? undefined },
      BatchPageSchema,
      options,
      checkBatchPage,
    );
  }

  /** Every page of the range in order, passing each cursor back unchanged (docs/batch-data-service.md#paging). */
  async *pages(
    query: BatchQuery,
    options: RequestOptions & { cursor?: string | null } = {},
  ): AsyncGenerator<BatchPage> {
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
      throw new AuthenticationError(`${path} refused the client credentials`, {
        status: 401,
        serviceDetail: describeDetail(safeJson(response.text))?.text,
      });
    }
    const token = parseWith(TokenResponseSchema, ensureOk(path, response, {}), 'token response', response.status);
    const issuedAt = Date.now();
    const expiresAt = token.expires_in
      ? issuedAt + Math.max(token.expires_in * 1000 - EXPIRY_SKEW_MS, (token.expires_in * 1000) / 2)
      : null;
    return { token: token.access_token, expiresAt, issuedAt };
  }

  /**
   * GET with a bearer token, retried as the retry policy says.
   *
   * - A 401 means this token is no longer good (it expired during a wait, it was revoked): a newer one is
   *   fetched and the request repeated, in every attempt. A token renewed within one attempt (no wait since)
   *   and refused at once ends the call as TokenRejectedError: the service misbehaves, the credentials are fine.
   * - Fetching a token is part of the attempt: a gateway error or an outage at the auth endpoint while a
   *   token is renewed is retried like the GET's own. (A sign-in's POST alone, authenticate(), is never retried.)
   * - The gate (see ConcurrencyGate) is held from the first exchange to the last, through the waits after a
   *   failure, so that a retry comes right after the requests already sent (a retry queued behind fresh
   *   requests can meet a periodic fault again and again); a 429 gives the slot back for its wait.
   * - The deadline counts the call's own time: the token fetch and every wait, not the time spent queued at
   *   the gate behind other requests of the same load.
   */
  private async get<S extends core.$ZodType>(
    path: string,
    query: Record<string, string | undefined>,
    schema: S,
    { signal: shared, onRetry, gate }: RequestOptions = {},
    fast?: FastCheck<core.output<S>>,
  ): Promise<core.output<S>> {
    // A signal of this call's own, following the caller's: a range load shares one signal among up to 32
    // requests, and each waiting at the gate or between retries hangs an abort listener on the signal it has
    // (more than 10 on one signal was Node's MaxListenersExceededWarning). AbortSignal.any adds none to `shared`.
    const signal = shared && AbortSignal.any([shared]);
    const startedAt = Date.now();
    let queuedMs = 0;
    let token: CachedToken | undefined;
    let held = false;
    let requeued = false;
    /** How long the last exchange took: the service's pace, told to the gate with a success. */
    let exchangeMs: number | undefined;
    const enter = async () => {
      if (!gate || held) return;
      const since = Date.now();
      await gate.acquire(signal, { retry: requeued });
      queuedMs += Date.now() - since;
      held = true;
    };
    const leave = (outcome: GateOutcome) => {
      if (held) gate!.release(outcome, outcome === 'ok' ? exchangeMs : undefined);
      held = false;
    };
    const attempt = async (): Promise<core.output<S>> => {
      await enter();
      let renewed = false;
      token ??= await transient(this.tokens.get(this.tokenKey, () => this.fetchToken()));
      for (;;) {
        const sent = this.now();
        const response = await this.exchange(path, query, token.token, signal);
        exchangeMs = this.now() - sent;
        if (response.status === 401) {
          if (renewed)
            throw new TokenRejectedError(`${path} refused an access token renewed for this very request`, {
              status: 401,
            });
          renewed = true;
          token = await transient(this.tokens.renew(this.tokenKey, token, () => this.fetchToken()));
          continue;
        }
        const kind = TRANSIENT[response.status];
        if (kind !== undefined) {
          throw new TransientFailure(
            unavailableAnswer(path, response, kind, describeDetail(safeJson(response.text)), this.retry.maxDelayMs),
          );
        }
        return parseWith(schema, ensureOk(path, response, query), 'response', response.status, fast);
      }
    };
    const tryAgain = async () => {
      try {
        return await attempt();
      } catch (error) {
        if (error instanceof TransientFailure) {
          if (error.kind === 'rate-limited') {
            leave('limited');
            requeued = true;
          } else gate?.note('failed');
        }
        throw error;
      }
    };
    const elapsed = () => Date.now() - startedAt - queuedMs;
    try {
      const told = (retry: RetryNotice) => {
        this.options.onRetry?.({ ...retry, path });
        onRetry?.(retry);
      };
      const result = await withRetries(tryAgain, {
        policy: this.retry,
        signal,
        onRetry: told,
        random: this.random,
        elapsed,
      });
      leave('ok');
      return result;
    } catch (error) {
      // A timeout or a failure that outlasted the retries counts against the service; the person leaving
      // (an abort) says nothing of it, and a refusal of the request itself is an answer.
      if (signal?.aborted) leave('cancelled');
      else leave(error instanceof TimeoutError || error instanceof ServiceUnavailableError ? 'failed' : 'ok');
      throw error;
    }
  }

  /** One GET; a connection that failed or dropped is a TransientFailure, any answer is returned as it is. */
  private exchange(
    path: string,
    query: Record<string, string | undefined>,
    bearer: string,
    signal?: AbortSignal,
  ): Promise<RawResponse> {
    return transient(send(this.transport, { method: 'GET', path, query, bearer, signal }));
  }
}

/**
 * Work inside an attempt whose ServiceUnavailableError is worth another attempt: a connection that failed or
 * dropped, or a token fetch that met an outage or a gateway error at the auth endpoint.
 */
async function transient<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ServiceUnavailableError) throw new TransientFailure(error);
    throw error;
  }
}

/**
 * A transient answer (see TRANSIENT) as its error, with the service's Retry-After and sentence; `adviceMs` is
 * the wait suggested to people when the service gave none.
 */
function unavailableAnswer(
  path: string,
  response: RawResponse,
  kind: TransientKind,
  detail: ServiceDetail | undefined,
  adviceMs: number,
) {
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  return new ServiceUnavailableError(
    `${path} answered ${response.status}`,
    Math.ceil((retryAfterMs ?? adviceMs) / 1000),
    {
      status: response.status,
      kind,
      retryAfterMs,
      serviceDetail: detail?.text,
    },
  );
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
    if (body === undefined) throw new BadResponseError('body: not valid JSON', { field: 'body', status });
    return body;
  }
  const detail = describeDetail(safeJson(response.text));
  if (status === 422) {
    const sent = Object.keys(query).filter((name) => query[name] !== undefined);
    const field = detail?.field ?? sent.find((name) => detail?.text.startsWith(`${name}: `));
    throw new InvalidInputError(detail?.text ?? 'The service refused the request as invalid', { field, status });
  }
  const kind = TRANSIENT[status];
  if (kind) throw unavailableAnswer(path, response, kind, detail, DEFAULT_RETRY_POLICY.maxDelayMs);
  throw new UnexpectedError(`${path} answered ${status}`, { status, serviceDetail: detail?.text });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A hand-written equivalent of a schema (see fast-batch.ts): its output, or undefined for "ask zod". */
type FastCheck<T> = (value: unknown) => T | undefined;

function parseWith<S extends core.$ZodType>(
  schema: S,
  value: unknown,
  what: string,
  status: number,
  fast?: FastCheck<core.output<S>>,
): core.output<S> {
  const checked = fast?.(value);
  if (checked !== undefined) return checked;
  const parsed = safeParse(schema, value);
  if (parsed.success) return parsed.data;
  const { field, message } = firstIssue(parsed.error, what);
  throw new BadResponseError(`${field}: ${message} (in the service's ${what})`, { field, status });
}

/** Built once: zod compiles a schema on first use, about 0.1 ms, which `.strict()` per call paid every time. */
const StrictBatchQuerySchema = strictObject(BatchQuerySchema.shape);

function validateQuery(query: BatchQuery): Record<string, string | undefined> {
  const parsed = StrictBatchQuerySchema.safeParse(query);
  if (parsed.success) return parsed.data;
  const { field, message } = firstIssue(parsed.error, 'query');
  throw new InvalidInputError(`${field}: ${message}`, { field });
}
