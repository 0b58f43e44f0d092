import 'server-only';
import { publicOrigin } from '../../http/route';
import { SSO_ERROR_PARAM, type SsoFailure } from '@/lib/auth/sso-failures';

export const CALLBACK_PATH = '/api/auth/oidc/callback';

/** The redirect URI registered at the provider: APP_ORIGIN when set (behind a proxy), else this request's origin. */
export const redirectUriOf = (request: Request) => `${publicOrigin(request)}${CALLBACK_PATH}`;

/** A redirect the browser follows; relative locations resolve against the URL the browser used, proxies included. */
export function redirectTo(location: string): Response {
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });
}

/** The sign-in page with the failure's sentence, keeping where the person was going. */
export function backToSignIn(reason: SsoFailure, next: string): Response {
  const params = new URLSearchParams({ [SSO_ERROR_PARAM]: reason });
  if (next !== '/batches') params.set('next', next);
  return redirectTo(`/sign-in?${params}`);
}
