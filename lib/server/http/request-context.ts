import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RetryNotice, UpstreamCall } from '../../batch-api';
import { logLine } from '../logging';
import { newRequestId } from '../logging/request-id';
import { countUpstreamRetry, observeUpstreamCall } from '../metrics/upstream';
import { retrySpan } from '../tracing/spans';
import { noteUpstreamCall } from '../batches/upstream-health';

/** What one request to our API did upstream, for its log line. */
export type RequestStats = { upstreamCalls: number; upstreamMs: number; upstreamFailures: number };

/** One request as its log line, metrics and trace see it. */
export type RequestContext = {
  requestId: string;
  stats: RequestStats;
  /** Who asked, once known: ids safe to log (never an e-mail, or a client ID in clear). */
  personId?: string;
  organisationId?: string;
  /** The custom server (server/) writes this request's line; route() then only fills in what it knows. */
  loggedByServer: boolean;
  /** The answer's body is a stream (set by route()): its line is written when the last byte is sent. */
  streamed?: boolean;
};

// On globalThis: the custom server and Next's bundle each carry a copy of this module.
const holder = globalThis as unknown as { __requestStorage?: AsyncLocalStorage<RequestContext> };
const storage = (holder.__requestStorage ??= new AsyncLocalStorage<RequestContext>());

export function newRequestContext(requestId: string, loggedByServer: boolean): RequestContext {
  return { requestId, loggedByServer, stats: { upstreamCalls: 0, upstreamMs: 0, upstreamFailures: 0 } };
}

/** Runs `work` as the request `context` (work started inside, streams included, counts there). */
export function runInRequest<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The request being served, when there is one. */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * Runs `work` in the current request's context, or, when nothing outside made one (`next dev`, a test
 * calling a handler), in a context of its own with the request's `X-Request-Id` if valid.
 */
export function inRequestContext<T>(request: Request, work: (context: RequestContext) => Promise<T>): Promise<T> {
  const current = storage.getStore();
  if (current) return work(current);
  const context = newRequestContext(newRequestId(request.headers.get('x-request-id')), false);
  return storage.run(context, () => work(context));
}

/**
 * Who made the current request, for its log line: the seam through which sessions name the person and the
 * organisation (ids safe to log, see lib/server/logging/identity.ts).
 */
export function noteRequestIdentity(identity: { personId?: string; organisationId?: string }): void {
  const context = storage.getStore();
  if (context) Object.assign(context, identity);
}

/** Every upstream call of the server goes through here: the request's counters, the metrics and the health record. */
export function recordUpstreamCall(call: UpstreamCall): void {
  noteUpstreamCall(call);
  observeUpstreamCall(call);
  // What the service (or a gateway) answered in a body that is not JSON never reaches the browser: it is here.
  if (call.rawBody !== undefined) {
    logLine('warn', 'upstream answered something that is not JSON', {
      method: call.method,
      path: call.path,
      status: call.status,
      body: call.rawBody,
    });
  }
  const stats = storage.getStore()?.stats;
  if (!stats) return;
  stats.upstreamCalls++;
  stats.upstreamMs += call.durationMs;
  // A call abandoned because the person left is no failure of the service.
  if (call.error !== 'aborted' && (call.status === null || call.status >= 500)) stats.upstreamFailures++;
}

/** Every retry of an upstream request: its metric and its span. */
export function recordUpstreamRetry(retry: RetryNotice & { path: string }): void {
  countUpstreamRetry(retry.kind);
  retrySpan(retry);
}
