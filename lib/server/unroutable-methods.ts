import 'server-only';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { API_CSP, HSTS, SECURITY_HEADERS } from '../security-headers.mjs';
import { AppError } from './app-error';
import { problemOf, problemResponse } from './error-table';
import { methodNotAllowed, ROUTE_METHODS } from './methods';
import { logRequest } from './request-log';
import { isHttps } from './auth/session-rules';

/**
 * What each API route serves, for answering a method that can never reach it. The routes' own `OPTIONS`
 * (lib/server/methods.ts) says the same; tests/integration/bff-routes.test.ts keeps the two equal and this
 * list complete. Any other path is a page (or Next's 404 page), served to GET and HEAD.
 */
const API_ALLOW: Record<string, string> = {
  '/api/session': 'DELETE, GET, HEAD, OPTIONS, POST',
  '/api/session/cache-key': 'GET, HEAD, OPTIONS',
  '/api/batches': 'GET, HEAD, OPTIONS',
  '/api/batches/stream': 'GET, HEAD, OPTIONS',
  '/api/batches/export': 'GET, HEAD, OPTIONS',
  '/api/health': 'GET, HEAD, OPTIONS',
  '/api/settings/targets': 'GET, HEAD, OPTIONS, PUT',
  '/api/settings/targets/history': 'GET, HEAD, OPTIONS',
  '/api/settings/targets/history/[id]/restore': 'OPTIONS, POST',
  '/api/settings/views': 'GET, HEAD, OPTIONS, POST',
  '/api/settings/views/[id]': 'DELETE, OPTIONS, PATCH',
  '/api/auth/oidc/start': 'GET, HEAD, OPTIONS',
  '/api/auth/oidc/callback': 'GET, HEAD, OPTIONS',
  '/api/admin/people': 'GET, HEAD, OPTIONS, POST',
  '/api/admin/people/[id]': 'DELETE, OPTIONS, PATCH',
  '/api/admin/people/[id]/sessions': 'DELETE, OPTIONS',
  '/api/admin/people/[id]/reset': 'OPTIONS, POST',
  '/api/admin/connection': 'GET, HEAD, OPTIONS, PUT',
  '/api/admin/connection/test': 'OPTIONS, POST',
  '/api/admin/activity': 'GET, HEAD, OPTIONS',
  '/api/account': 'GET, HEAD, OPTIONS, PATCH',
  '/api/account/sessions': 'DELETE, GET, HEAD, OPTIONS',
  '/api/account/sessions/[id]': 'DELETE, OPTIONS',
  '/api/links/[token]': 'GET, HEAD, OPTIONS, POST',
};

/** Routes with a segment of their own, to the name their folder has (`[id]`). */
const DYNAMIC: [RegExp, string][] = [
  [/^\/api\/settings\/views\/[^/]+$/, '/api/settings/views/[id]'],
  [/^\/api\/settings\/targets\/history\/[^/]+\/restore$/, '/api/settings/targets/history/[id]/restore'],
  [/^\/api\/admin\/people\/[^/]+$/, '/api/admin/people/[id]'],
  [/^\/api\/admin\/people\/[^/]+\/sessions$/, '/api/admin/people/[id]/sessions'],
  [/^\/api\/admin\/people\/[^/]+\/reset$/, '/api/admin/people/[id]/reset'],
  [/^\/api\/account\/sessions\/[^/]+$/, '/api/account/sessions/[id]'],
  [/^\/api\/links\/[^/]+$/, '/api/links/[token]'],
];

export function allowedAt(pathname: string): string {
  const path = pathname.replace(/(.)\/+$/, '$1');
  return API_ALLOW[DYNAMIC.find(([pattern]) => pattern.test(path))?.[1] ?? path] ?? 'GET, HEAD';
}

const ROUTABLE = new Set<string>(ROUTE_METHODS);
const NO_UPSTREAM = { upstreamCalls: 0, upstreamMs: 0, upstreamFailures: 0 };

/**
 * Whether Next can hand this request to any code of ours. TRACE it cannot anywhere: Next builds a fetch
 * Request for the proxy and for route handlers alike, and fetch refuses TRACE (a forbidden method), so every
 * TRACE was a 500 with a stack trace in the log. On the API, a method outside what a route module may export
 * gets Next's bare 400.
 */
function unroutable(method: string, url: string): boolean {
  return !ROUTABLE.has(method) && (method === 'TRACE' || url.startsWith('/api/'));
}

/**
 * An API path whose percent-encoding does not decode (`/api/settings/views/%E0%A4%A`): Next fails such a
 * dynamic segment with a bare 500 before any code of ours runs. No route of ours has such a path: a 404.
 */
function undecodable(url: string): boolean {
  if (!url.startsWith('/api/')) return false;
  try {
    decodeURIComponent(url.split('?')[0]!);
    return false;
  } catch {
    return true;
  }
}

/** The request target as a URL; one that does not parse (an absolute form gone wrong) counts as `/`. */
function parseTarget(target: string): URL {
  try {
    return new URL(target, 'http://app.invalid');
  } catch {
    return new URL('/', 'http://app.invalid');
  }
}

/** A Node request's headers read as a fetch Headers reads them (a repeated header joined by commas). */
function headersOf(req: IncomingMessage): Pick<Headers, 'get'> {
  return {
    get: (name) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : String(value);
    },
  };
}

/** The 405 the route itself would give (or the 404 of an undecodable path), with the headers next.config.mjs gives every answer, and its log line. */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const url = parseTarget(req.url ?? '/');
  const response = undecodable(req.url ?? '')
    ? problemResponse(problemOf(new AppError('not_found', 'no such resource: its percent-encoding does not decode', { field: 'path' })))
    : methodNotAllowed(req.method!, allowedAt(url.pathname));
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  for (const { key, value } of SECURITY_HEADERS) headers[key.toLowerCase()] = value;
  headers['content-security-policy'] = API_CSP;
  if (isHttps({ headers: headersOf(req) })) headers['strict-transport-security'] = HSTS;
  req.resume(); // a body, if any, is not read: let it drain
  void response.text().then((body) => {
    res.writeHead(response.status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
    logRequest({ method: req.method!, url: url.href }, response, started, NO_UPSTREAM);
  });
}

const INSTALLED = Symbol.for('tsb.unroutableMethods');

/**
 * Answers, at the HTTP server and before Next, the requests Next cannot route (see `unroutable`). A hook on
 * the server's `request` event because nothing of Next's runs early enough; GET and POST pay one Set lookup
 * (and, under /api/, one decode of the path).
 * Called once at start-up (instrumentation.ts), in the process that serves HTTP.
 */
export function answerUnroutableMethods(): void {
  const proto = Server.prototype as Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      if (unroutable(req.method ?? '', req.url ?? '') || undecodable(req.url ?? '')) {
        refuse(req, res);
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
