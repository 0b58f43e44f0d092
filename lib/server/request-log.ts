import 'server-only';
import { logLine } from './log';
import type { RequestStats } from './request-context';

/** What the log needs of a request: the TRACE answered before Next (lib/server/unroutable-methods.ts) has no Request. */
export type LoggedRequest = { method: string; url: string; signal?: AbortSignal };

/**
 * One JSON line per API request on stdout: method, path (never the query or a header), status, duration,
 * what it cost upstream, and the ids of the person and organisation it was made for. A streamed answer is
 * logged when its last byte is sent, or with `aborted: true` when the client drops it; so is an answer nobody
 * was left to read (the 499 of lib/server/route.ts).
 */
export function logRequest(request: LoggedRequest, response: Response, started: number, stats: RequestStats): Response {
  const base = { method: request.method, path: new URL(request.url).pathname, status: response.status };
  const write = (extra: Record<string, unknown>) =>
    logLine(response.status >= 500 ? 'error' : response.status >= 400 ? 'warn' : 'info', 'request', {
      ...base,
      durationMs: Math.round(performance.now() - started),
      upstreamCalls: stats.upstreamCalls,
      upstreamMs: Math.round(stats.upstreamMs),
      upstreamFailures: stats.upstreamFailures,
      ...(stats.personId && { person_id: stats.personId }),
      ...(stats.organisationId && { organisation_id: stats.organisationId }),
      ...extra,
    });
  if (request.method === 'HEAD') {
    // Next sends no body for HEAD but neither reads nor cancels one: a streamed body would hold its upstream
    // work open for good, and its line would never be written.
    void response.body?.cancel();
    write({});
    return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || type.startsWith('application/json')) {
    write(request.signal?.aborted ? { aborted: true } : {});
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  response.body.pipeTo(writable).then(
    () => write({ streamed: true }),
    () => write({ streamed: true, aborted: true }),
  );
  return new Response(readable, { status: response.status, statusText: response.statusText, headers: response.headers });
}
