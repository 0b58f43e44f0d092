import { ServiceUnavailableError, TimeoutError } from './errors';

/** One HTTP exchange with the service, as reported to `onCall` (for logs and tests). */
export type UpstreamCall = {
  method: string;
  path: string;
  status: number | null;
  durationMs: number;
  error?: string;
  /** The start of an error answer whose body is not JSON (a gateway's page, a crash trace): for the log only. */
  rawBody?: string;
};

/** How much of a body that is not JSON goes to the log. */
const RAW_BODY_CHARS = 500;

function rawBodyOf(status: number, text: string): string | undefined {
  if (status < 400 || text === '') return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return text.slice(0, RAW_BODY_CHARS);
  }
}

export type TransportOptions = {
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number;
  onCall?: (call: UpstreamCall) => void;
  slot?: ExchangeSlot;
};

/**
 * Waited for before each exchange, and given back (the function it resolves with) once the exchange is over:
 * a share of the process's upstream connections (lib/server/upstream.ts gives each organisation a fair one).
 * `first`: the exchange others wait for (a token fetch), ahead of the rest. The wait is not part of the timeout.
 */
export type ExchangeSlot = (signal: AbortSignal | undefined, first: boolean) => Promise<() => void>;

export type RawResponse = { status: number; headers: Headers; text: string };

/**
 * A fetch that can also answer a whole text body without building a Response (keepAliveFetch): the transport
 * uses it when the fetch it was given has it. Same answers and failures as fetch plus `response.text()`.
 */
export const READ_TEXT = Symbol('read text');
export type TextReader = { [READ_TEXT]: (url: URL, init: RequestInit) => Promise<RawResponse> };

export async function readWhole(response: Response): Promise<RawResponse> {
  return { status: response.status, headers: response.headers, text: await response.text() };
}

type Request = {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  form?: Record<string, string>;
  bearer?: string;
  signal?: AbortSignal;
};

/**
 * Sends one request and reads the whole body under one timeout. Throws TimeoutError, the caller's
 * abort reason, or ServiceUnavailableError for a connection that failed or dropped mid-body.
 */
export async function send(options: TransportOptions, request: Request): Promise<RawResponse> {
  if (!options.slot) return exchange(options, request);
  const release = await options.slot(request.signal, request.method === 'POST');
  try {
    return await exchange(options, request);
  } finally {
    release();
  }
}

async function exchange(options: TransportOptions, request: Request): Promise<RawResponse> {
  const url = new URL(options.baseUrl.replace(/\/+$/, '') + request.path);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.bearer) headers.authorization = `Bearer ${request.bearer}`;
  if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const started = performance.now();
  const report = (status: number | null, error?: string, rawBody?: string) =>
    options.onCall?.({
      method: request.method,
      path: request.path,
      status,
      durationMs: performance.now() - started,
      error,
      rawBody,
    });

  try {
    const init: RequestInit = {
      method: request.method,
      headers,
      body: request.form ? new URLSearchParams(request.form).toString() : undefined,
      signal,
      redirect: 'error',
    };
    const readText = (options.fetch as Partial<TextReader>)[READ_TEXT];
    const response = readText ? await readText(url, init) : await readWhole(await options.fetch(url, init));
    const text = response.text;
    // Never the body of an answer to a request that carried credentials: a gateway's page may echo them.
    report(response.status, undefined, request.form ? undefined : rawBodyOf(response.status, text));
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (request.signal?.aborted) {
      report(null, 'aborted');
      throw request.signal.reason;
    }
    if (timeout.signal.aborted) {
      report(null, 'timeout');
      throw new TimeoutError(
        `${request.method} ${request.path}: no complete answer within ${options.timeoutMs} ms`,
        options.timeoutMs,
      );
    }
    report(null, 'connection');
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ServiceUnavailableError(`${request.method} ${request.path}: connection failed (${reason})`, 5, {
      cause: error,
      kind: 'connection',
    });
  } finally {
    clearTimeout(timer);
  }
}
