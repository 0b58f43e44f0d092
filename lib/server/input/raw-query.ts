import 'server-only';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

/*
 * What a request sent after `?`, exactly as it sent it, for the route wrapper to check. Next.js rebuilds a
 * route handler's URL from a query object it fills by assignment, so a parameter named `__proto__` never
 * reaches the handler (nor does Next's own `_rsc`): `?__proto__=1` would be answered as if it were not there.
 */

/** The request header that carries the raw query string to the route handlers. */
export const RAW_QUERY_HEADER = 'x-tsb-raw-query';

const holder = globalThis as unknown as { __rawQueryHook?: boolean };

/** The query string of a request-target (`/api/batches?a=1` → `a=1`), '' when it has none. */
export function queryOf(target: string): string {
  const mark = target.indexOf('?');
  if (mark < 0) return '';
  const hash = target.indexOf('#', mark);
  return target.slice(mark + 1, hash < 0 ? undefined : hash);
}

/**
 * Node publishes every request on `http.server.request.start` before the server's 'request' event, hence
 * before Next.js reads it (see peer-address.ts): the subscriber writes the request-target's query into our
 * own header, replacing whatever a client sent under that name. Anything but printable ASCII is
 * percent-encoded as a URL parser would, so the value is always a valid header.
 */
export function installRawQueryHook(): void {
  if (holder.__rawQueryHook) return;
  subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage };
    try {
      request.headers[RAW_QUERY_HEADER] = queryOf(request.url ?? '').replace(/[^\x21-\x7e]/g, encodeURIComponent);
    } catch {
      // A subscriber's exception would be thrown again outside any request: the URL Next.js rebuilt is checked instead.
      delete request.headers[RAW_QUERY_HEADER];
    }
  });
  holder.__rawQueryHook = true;
}
