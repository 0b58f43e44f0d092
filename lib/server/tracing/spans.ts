import 'server-only';
import type { IncomingMessage } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { LogEvent } from 'kysely';
import type { RetryNotice } from '../../batch-api';
import { READ_TEXT, type RawResponse, type TextReader } from '../../batch-api/transport';
import { tracer } from './setup';

/**
 * The request's span (kind server), a child of the caller's trace when a `traceparent` came with it, and
 * the context in which the request is served, so that every span made while serving it hangs from it.
 * Attributes as OpenTelemetry's HTTP conventions name them.
 */
export function startRequestSpan(req: IncomingMessage, method: string): { span: Span; context: Context } {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer().startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': method, 'url.path': (req.url ?? '/').split('?')[0], 'url.scheme': 'http' },
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends the request's span: its route (named `GET /api/batches/stream` once known) and status; a 5xx is an error. */
export function endRequestSpan(
  span: Span,
  method: string,
  route: string | undefined,
  status: number,
  aborted: boolean,
): void {
  if (route) span.updateName(`${method} ${route}`).setAttribute('http.route', route);
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', String(status));
  else if (aborted) span.setAttribute('error.type', 'aborted');
  span.end();
}

/** A span per exchange with the service (kind client), the trace carried on in `traceparent`. */
async function exchangeSpan<T extends { status: number }>(
  url: URL,
  init: RequestInit,
  send: (init: RequestInit) => Promise<T>,
): Promise<T> {
  const method = init.method ?? 'GET';
  return tracer().startActiveSpan(
    `${method} ${url.pathname}`,
    {
      kind: SpanKind.CLIENT,
      // The query is left out of url.full: it is the organisation's filters, not the trace's business.
      attributes: {
        'http.request.method': method,
        'url.full': url.origin + url.pathname,
        'server.address': url.hostname,
        'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      },
    },
    async (span) => {
      const headers = new Headers(init.headers);
      propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
      try {
        const response = await send({ ...init, headers });
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500)
          span.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', String(response.status));
        return response;
      } catch (error) {
        const type = init.signal?.aborted ? 'aborted' : error instanceof Error ? error.name : 'error';
        span.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', type);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** `fetch` (and its whole-text reader, see transport.ts) with a client span around every exchange. */
export function tracedFetch(fetch: typeof globalThis.fetch & TextReader): typeof globalThis.fetch & TextReader {
  const traced = ((input: Parameters<typeof fetch>[0], init: RequestInit = {}) => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : new URL(input.url);
    return exchangeSpan(url, init, (sent) => fetch(input, sent));
  }) as typeof fetch;
  return Object.assign(traced, {
    [READ_TEXT]: (url: URL, init: RequestInit): Promise<RawResponse> =>
      exchangeSpan(url, init, (sent) => fetch[READ_TEXT](url, sent)),
  });
}

/** A retry's wait, as a span of its own from the failure to the next attempt. */
export function retrySpan(retry: RetryNotice & { path: string }): void {
  const start = Date.now();
  tracer()
    .startSpan('batch_service retry', {
      startTime: start,
      attributes: {
        'batch_service.retry.attempt': retry.attempt,
        'batch_service.retry.reason': retry.kind,
        'batch_service.retry.delay_ms': retry.delayMs,
        'url.path': retry.path,
      },
    })
    .end(start + retry.delayMs);
}

/**
 * A span per database statement (kind client), made from Kysely's log event once the statement is done.
 * The statement's text has placeholders, never the values.
 */
export function querySpan(event: LogEvent): void {
  const end = Date.now();
  const text = event.query.sql;
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  const span = tracer().startSpan(operation, {
    kind: SpanKind.CLIENT,
    startTime: end - event.queryDurationMillis,
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text },
  });
  if (event.level === 'error') {
    const code = (event.error as { code?: unknown } | null)?.code;
    span
      .setStatus({ code: SpanStatusCode.ERROR })
      .setAttribute('error.type', typeof code === 'string' ? code : 'error');
  }
  span.end(end);
}
