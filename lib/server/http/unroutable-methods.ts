import 'server-only';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { API_CSP, HSTS, SECURITY_HEADERS } from '../../security-headers.mjs';
import { AppError } from './app-error';
import { problemOf, problemResponse } from './error-table';
import { methodNotAllowed, ROUTE_METHODS } from './methods';
import { newRequestId } from '../logging/request-id';
import { newRequestContext } from './request-context';
import { logRequest } from './request-log';
import { allowedAt } from '../routing/api-routes';
import { isHttps } from '../auth/session-rules';

export { allowedAt };

const ROUTABLE = new Set<string>(ROUTE_METHODS);

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

/** An answer written before Next, to the Node response, with the headers next.config.mjs gives every API answer. */
export type EarlyAnswer = { response: Response; headers: Record<string, string> };

/** `response` with the headers next.config.mjs would add (security headers, the API's CSP, HSTS over https). */
export function earlyAnswer(req: IncomingMessage, response: Response): EarlyAnswer {
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  for (const { key, value } of SECURITY_HEADERS) headers[key.toLowerCase()] = value;
  headers['content-security-policy'] = API_CSP;
  if (isHttps({ headers: headersOf(req) })) headers['strict-transport-security'] = HSTS;
  return { response, headers };
}

/**
 * The answer to a request Next cannot route (see `unroutable`, `undecodable`), or null for one it can: the
 * 405 the route itself would give, or the 404 of an undecodable path.
 */
export function refusalOf(req: IncomingMessage): EarlyAnswer | null {
  if (!unroutable(req.method ?? '', req.url ?? '') && !undecodable(req.url ?? '')) return null;
  const url = parseTarget(req.url ?? '/');
  const response = undecodable(req.url ?? '')
    ? problemResponse(
        problemOf(
          new AppError('not_found', 'no such resource: its percent-encoding does not decode', { field: 'path' }),
        ),
      )
    : methodNotAllowed(req.method!, allowedAt(url.pathname));
  return earlyAnswer(req, response);
}

/** Writes an early answer to the Node response; a request body, if any, is not read but drained. */
export async function sendEarly(req: IncomingMessage, res: ServerResponse, answer: EarlyAnswer): Promise<void> {
  req.resume();
  const body = await answer.response.text();
  res.writeHead(answer.response.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** Answers and logs a refusal where no custom server does (`next dev`, `next start`). */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: EarlyAnswer): void {
  const started = performance.now();
  const context = newRequestContext(newRequestId(req.headers['x-request-id'] as string | undefined), false);
  refusal.headers['x-request-id'] = context.requestId;
  void sendEarly(req, res, refusal).then(() =>
    logRequest({ method: req.method!, url: parseTarget(req.url ?? '/').href }, refusal.response, started, context),
  );
}

const INSTALLED = Symbol.for('tsb.unroutableMethods');

/**
 * Answers, at the HTTP server and before Next, the requests Next cannot route (see `unroutable`), where Next
 * owns the HTTP server (`next dev`, a bare `next start`): a hook on the server's `request` event, because
 * nothing of Next's runs early enough. The custom server (server/) asks refusalOf itself instead. GET and POST
 * pay one Set lookup (and, under /api/, one decode of the path). Called once at start-up (instrumentation.ts).
 */
export function answerUnroutableMethods(): void {
  const proto = Server.prototype as Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      const refusal = refusalOf(req);
      if (refusal) {
        refuse(req, res, refusal);
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
