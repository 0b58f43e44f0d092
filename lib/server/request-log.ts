import 'server-only';
import { logLine } from './log';
import type { RequestStats } from './request-context';

/**
 * One JSON line per API request on stdout: method, path (never the query or a header), status, duration and
 * what it cost upstream. A streamed answer is logged when its last byte is sent (or the reader gives up).
 */
export function logRequest(request: Request, response: Response, started: number, stats: RequestStats): Response {
  const base = { method: request.method, path: new URL(request.url).pathname, status: response.status };
  const write = (extra: Record<string, unknown>) =>
    logLine(response.status >= 500 ? 'error' : response.status >= 400 ? 'warn' : 'info', 'request', {
      ...base,
      durationMs: Math.round(performance.now() - started),
      upstreamCalls: stats.upstreamCalls,
      upstreamMs: Math.round(stats.upstreamMs),
      upstreamFailures: stats.upstreamFailures,
      ...extra,
    });
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || type.startsWith('application/json')) {
    write({});
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  response.body.pipeTo(writable).then(
    () => write({ streamed: true }),
    () => write({ streamed: true, aborted: true }),
  );
  return new Response(readable, { status: response.status, statusText: response.statusText, headers: response.headers });
}
