import 'server-only';
import { logLine } from '../logging';
import { observeHttpRequest } from '../metrics/http';
import type { RequestContext } from './request-context';
import { apiRouteTemplate } from '../routing/api-routes';

/** What the log needs of a request: the TRACE answered before Next (lib/server/http/unroutable-methods.ts) has no Request. */
export type LoggedRequest = { method: string; url: string; signal?: AbortSignal };

/** A request whose answer is complete (or was dropped), as its log line and its metric see it. */
export type FinishedRequest = {
  method: string;
  path: string;
  /** The route's template (`/api/settings/views/[id]`), never a path with ids; absent when no route matched. */
  route?: string;
  status: number;
  durationMs: number;
  context: RequestContext;
  streamed?: boolean;
  aborted?: boolean;
};

/**
 * One JSON line per request: request id, method, path (never the query or a header), route, status,
 * duration, what it cost upstream and who asked (the person's and organisation's ids, never an e-mail); and its sample of
 * `http_server_request_duration_seconds`. The custom server calls this for every request it serves; route()
 * does when nothing outside it does (`next dev`, tests calling handlers).
 */
export function requestFinished(r: FinishedRequest): void {
  const { requestId, stats, personId, organisationId } = r.context;
  logLine(r.status >= 500 ? 'error' : r.status >= 400 ? 'warn' : 'info', 'request', {
    request_id: requestId,
    method: r.method,
    path: r.path,
    route: r.route,
    status: r.status,
    durationMs: Math.round(r.durationMs),
    upstreamCalls: stats.upstreamCalls,
    upstreamMs: Math.round(stats.upstreamMs),
    upstreamFailures: stats.upstreamFailures,
    person_id: personId,
    organisation_id: organisationId,
    ...(r.streamed && { streamed: true }),
    ...(r.aborted && { aborted: true }),
  });
  observeHttpRequest(r.method, r.route, r.status, r.durationMs / 1000);
}

/**
 * The answer of a route handler on its way out. A streamed answer is logged when its last byte is sent, or
 * with `aborted: true` when the client drops it; so is an answer nobody was left to read (the 499 of
 * lib/server/http/route.ts). Under the custom server, which writes the line itself, it only says whether the
 * answer streams.
 */
export function logRequest(
  request: LoggedRequest,
  response: Response,
  started: number,
  context: RequestContext,
): Response {
  const path = new URL(request.url).pathname;
  const write = (extra: Pick<FinishedRequest, 'streamed' | 'aborted'>) =>
    requestFinished({
      method: request.method,
      path,
      route: apiRouteTemplate(path),
      status: response.status,
      durationMs: performance.now() - started,
      context,
      ...extra,
    });
  if (!context.loggedByServer) response.headers.set('x-request-id', context.requestId);
  if (request.method === 'HEAD') {
    // Next sends no body for HEAD but neither reads nor cancels one: a streamed body would hold its upstream
    // work open for good, and its line would never be written.
    void response.body?.cancel();
    if (!context.loggedByServer) write({});
    return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || type.startsWith('application/json')) {
    if (!context.loggedByServer) write({ aborted: request.signal?.aborted });
    return response;
  }
  context.streamed = true;
  if (context.loggedByServer) return response;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  response.body.pipeTo(writable).then(
    () => write({ streamed: true }),
    () => write({ streamed: true, aborted: true }),
  );
  return new Response(readable, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
