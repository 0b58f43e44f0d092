import 'server-only';
import { AppError } from './app-error';
import { problemOf, problemResponse } from './error-table';
import { logged } from './route';

/** The methods a route module may export (Next ignores any other export, and answers others itself). */
export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];
type Handler = (request: Request) => Promise<Response>;

/** 405 naming the method and, in `Allow`, what the resource does serve; its status from the error table. */
export function methodNotAllowed(method: string, allow: string): Response {
  const error = new AppError('method_not_allowed', `${method.slice(0, 20)} is not allowed here; allowed: ${allow}`, {
    field: 'method',
  });
  const response = problemResponse(problemOf(error));
  response.headers.set('allow', allow);
  return response;
}

/**
 * Every method a route does not serve, for its module to export beside the ones it does:
 * `export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET, HEAD })`. Next's own answers
 * to those are a bare 405 without `Allow` and an OPTIONS, neither logged; these are 405 with `Allow` and
 * `{detail}` (refused before the origin or session checks: the method is wrong whoever asks), 204 with
 * `Allow`, and HEAD as GET when the route has no HEAD of its own. Each writes its log line.
 */
export function otherMethods<S extends Partial<Record<RouteMethod, Handler>>>(
  served: S,
): Record<Exclude<RouteMethod, keyof S>, Handler> {
  const methods = new Set<string>(Object.keys(served));
  if (served.GET) methods.add('HEAD');
  methods.add('OPTIONS');
  const allow = [...methods].sort().join(', ');
  const others: Partial<Record<RouteMethod, Handler>> = {};
  for (const method of ROUTE_METHODS) {
    if (method in served) continue;
    if (method === 'HEAD' && served.GET) others.HEAD = served.GET;
    else if (method === 'OPTIONS')
      others.OPTIONS = logged(
        async () => new Response(null, { status: 204, headers: { allow, 'cache-control': 'no-store' } }),
      );
    else others[method] = logged(async (request) => methodNotAllowed(request.method, allow));
  }
  return others as Record<Exclude<RouteMethod, keyof S>, Handler>;
}
