import 'server-only';
import { metrics } from './registry';

/** Methods kept as they are; any other is `_OTHER`, as OpenTelemetry's conventions say (no label per invented method). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT']);

export const methodLabel = (method: string) => (KNOWN_METHODS.has(method) ? method : '_OTHER');

/** One request's sample; `route` the template, or absent (an empty label) when no route matched the path. */
export function observeHttpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  metrics().httpServerDuration.observe(
    { http_request_method: methodLabel(method), http_route: route ?? '', http_response_status_code: String(status) },
    seconds,
  );
}
