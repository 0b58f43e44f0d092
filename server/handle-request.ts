import type { IncomingMessage, ServerResponse } from 'node:http';
import { context as traceContext } from '@opentelemetry/api';
import { AppError } from '../lib/server/http/app-error';
import { problemOf, problemResponse } from '../lib/server/http/error-table';
import { DRAINING_RETRY_AFTER_S, isDraining } from '../lib/server/health/shutdown';
import { errorFields, logLine } from '../lib/server/logging';
import { newRequestId } from '../lib/server/logging/request-id';
import { metricsAnswer } from '../lib/server/metrics/endpoint';
import { methodLabel } from '../lib/server/metrics/http';
import { PEER_ADDRESS_HEADER } from '../lib/server/http/peer-address';
import { newRequestContext, runInRequest } from '../lib/server/http/request-context';
import { requestFinished } from '../lib/server/http/request-log';
import { endRequestSpan, startRequestSpan } from '../lib/server/tracing/spans';
import { earlyAnswer, refusalOf, sendEarly } from '../lib/server/http/unroutable-methods';

/** Next's request handler (`app.getRequestHandler()`), or anything that answers like it. */
export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export type RequestHandlerOptions = {
  next: NextHandler;
  /** The route template serving a path (server/route-templates.ts). */
  routeOf: (pathname: string) => string | undefined;
  /** Serves /metrics on this port behind this bearer token; unset, /metrics is Next's (a 404). */
  metricsToken?: string;
};

/** What a draining instance still answers: its health, for the load balancer. */
const STILL_SERVED = /^\/api\/health(\/|$)/;

const pathOf = (url: string | undefined) => (url ?? '/').split('?')[0]!;

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The production server's handling of every request, before and around Next:
 * - a request id (a valid `X-Request-Id`, or a new one) in the answer's header and in every log line of it;
 * - the socket's address in PEER_ADDRESS_HEADER, replacing whatever a client sent under that name (the
 *   sign-in limits count by it); the methods Next cannot route refused (lib/server/http/unroutable-methods.ts);
 * - while draining (SIGTERM), 503 with Retry-After for all but the health endpoints;
 * - /metrics behind its token;
 * - once the answer's last byte is sent (or the client left), one log line, one sample of
 *   http_server_request_duration_seconds and the end of the request's span.
 * `inProgress()` counts the requests not finished; `idle()` resolves when there are none.
 */
export function createRequestHandler(options: RequestHandlerOptions) {
  let inProgress = 0;
  let waiting: (() => void)[] = [];
  const finished = () => {
    inProgress--;
    if (inProgress > 0) return;
    for (const wake of waiting) wake();
    waiting = [];
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const path = pathOf(req.url);
    const context = newRequestContext(newRequestId(header(req, 'x-request-id')), true);
    req.headers['x-request-id'] = context.requestId;
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? '';
    res.setHeader('x-request-id', context.requestId);
    const span = startRequestSpan(req, methodLabel(method));
    inProgress++;
    let done = false;
    const end = (aborted: boolean) => {
      if (done) return;
      done = true;
      // Closed before an answer began: nobody was left to read it (logged as 499, as route() does).
      const status = res.headersSent ? res.statusCode : 499;
      const route = options.routeOf(path);
      requestFinished({
        method,
        path,
        route,
        status,
        durationMs: performance.now() - started,
        context,
        streamed: context.streamed,
        aborted,
      });
      endRequestSpan(span.span, methodLabel(method), route, status, aborted);
      finished();
    };
    // The last byte handed to the socket, or the connection gone before it.
    res.once('finish', () => end(false));
    res.once('close', () => end(!res.writableFinished));
    traceContext.with(span.context, () =>
      runInRequest(context, () =>
        dispatch(req, res, path, options).catch((error: unknown) => {
          logLine('error', 'request failed before an answer', { path, ...errorFields(error) });
          if (!res.headersSent)
            res
              .writeHead(500, { 'content-type': 'application/json' })
              .end(JSON.stringify({ detail: 'internal error' }));
          else res.destroy();
        }),
      ),
    );
  };

  return {
    handle,
    inProgress: () => inProgress,
    idle: () => (inProgress === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
  };
}

async function dispatch(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  options: RequestHandlerOptions,
): Promise<void> {
  if (isDraining() && !STILL_SERVED.test(path)) {
    res.shouldKeepAlive = false;
    const error = new AppError('shutting_down', 'this server is restarting; try again shortly', {
      field: 'server',
      retryAfterS: DRAINING_RETRY_AFTER_S,
    });
    return sendEarly(req, res, earlyAnswer(req, problemResponse(problemOf(error))));
  }
  if (path === '/metrics' && options.metricsToken !== undefined) {
    req.resume();
    const answer = await metricsAnswer(header(req, 'authorization'), options.metricsToken);
    res.writeHead(answer.status, answer.headers).end(answer.body);
    return;
  }
  const refusal = refusalOf(req);
  if (refusal) return sendEarly(req, res, refusal);
  await options.next(req, res);
}
