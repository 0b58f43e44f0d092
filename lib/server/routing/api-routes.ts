import 'server-only';

/**
 * What each API route serves, for answering a method that can never reach it. The routes' own `OPTIONS`
 * (lib/server/http/methods.ts) says the same; tests/integration/bff-routes.test.ts keeps the two equal and this
 * list complete. Any other path is a page (or Next's 404 page), served to GET and HEAD.
 */
const API_ALLOW: Record<string, string> = {
  '/api/session': 'DELETE, GET, HEAD, OPTIONS, POST',
  '/api/session/cache-key': 'GET, HEAD, OPTIONS',
  '/api/batches': 'GET, HEAD, OPTIONS',
  '/api/batches/stream': 'GET, HEAD, OPTIONS',
  '/api/batches/export': 'GET, HEAD, OPTIONS',
  '/api/health': 'GET, HEAD, OPTIONS',
  '/api/health/live': 'GET, HEAD, OPTIONS',
  '/api/health/ready': 'GET, HEAD, OPTIONS',
  '/api/settings/targets': 'GET, HEAD, OPTIONS, PUT',
  '/api/settings/targets/history': 'GET, HEAD, OPTIONS',
  '/api/settings/targets/history/[id]/restore': 'OPTIONS, POST',
  '/api/settings/views': 'GET, HEAD, OPTIONS, POST',
  '/api/settings/views/[id]': 'DELETE, OPTIONS, PATCH',
  '/api/settings/views/[id]/schedule': 'DELETE, GET, HEAD, OPTIONS, PUT',
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
  '/api/people': 'GET, HEAD, OPTIONS',
  '/api/alerts': 'GET, HEAD, OPTIONS, POST',
  '/api/alerts/[id]': 'DELETE, GET, HEAD, OPTIONS, PATCH',
  '/api/alerts/[id]/subscription': 'OPTIONS, PUT',
  '/api/alerts/history': 'GET, HEAD, OPTIONS',
  '/api/alerts/history/read': 'OPTIONS, POST',
  '/api/alerts/unsubscribe': 'GET, HEAD, OPTIONS, POST',
};

/** Routes with a segment of their own, to the name their folder has (`[id]`). */
const DYNAMIC: [RegExp, string][] = [
  [/^\/api\/settings\/views\/[^/]+$/, '/api/settings/views/[id]'],
  [/^\/api\/settings\/views\/[^/]+\/schedule$/, '/api/settings/views/[id]/schedule'],
  [/^\/api\/settings\/targets\/history\/[^/]+\/restore$/, '/api/settings/targets/history/[id]/restore'],
  [/^\/api\/admin\/people\/[^/]+$/, '/api/admin/people/[id]'],
  [/^\/api\/admin\/people\/[^/]+\/sessions$/, '/api/admin/people/[id]/sessions'],
  [/^\/api\/admin\/people\/[^/]+\/reset$/, '/api/admin/people/[id]/reset'],
  [/^\/api\/account\/sessions\/[^/]+$/, '/api/account/sessions/[id]'],
  [/^\/api\/links\/[^/]+$/, '/api/links/[token]'],
  // A rule's id; `history` and `unsubscribe` are routes of their own.
  [/^\/api\/alerts\/(?!history$|unsubscribe$)[^/]+$/, '/api/alerts/[id]'],
  [/^\/api\/alerts\/[^/]+\/subscription$/, '/api/alerts/[id]/subscription'],
];

/** The API route serving `pathname`, as its folder names it (`/api/settings/views/[id]`), or undefined. */
export function apiRouteTemplate(pathname: string): string | undefined {
  const path = pathname.replace(/(.)\/+$/, '$1');
  const route = DYNAMIC.find(([pattern]) => pattern.test(path))?.[1] ?? path;
  return route in API_ALLOW ? route : undefined;
}

/** The methods `pathname` serves, for `Allow`. */
export function allowedAt(pathname: string): string {
  const route = apiRouteTemplate(pathname);
  return route ? API_ALLOW[route]! : 'GET, HEAD';
}
