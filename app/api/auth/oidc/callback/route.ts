import { z } from 'zod';
import { getConfig } from '@/lib/server/config';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { backToSignIn, redirectTo, redirectUriOf } from '@/lib/server/auth/oidc/answers';
import { ssoPeople } from '@/lib/server/auth/oidc/people';
import { finishSsoSignIn } from '@/lib/server/auth/oidc/sign-in';
import { callbackAllowed } from '@/lib/server/auth/oidc/throttle';
import { logLine } from '@/lib/server/logging';
import { countSignIn, ssoSignInResult } from '@/lib/server/metrics/sign-ins';

/**
 * `GET /api/auth/oidc/callback`: the redirect URI the provider sends the browser back to, with a code (or an
 * error) and the state. Its parameters are the provider's (code, state, iss, session_state, scope…), so they
 * are read as the protocol says, not by a schema of ours. Signed in: off to `next`; refused: the sign-in page
 * with the reason.
 */
// The provider's parameters, read from the request by the protocol's rules (openid-client), not by a schema of ours.
const ProviderParameters = z.looseObject({});

export const GET = route({ auth: false, query: ProviderParameters }, async ({ request, cookies }) => {
  const settings = getConfig().oidc;
  if (!settings) {
    countSignIn('oidc', ssoSignInResult('not_configured'));
    return backToSignIn('not_configured', '/batches');
  }
  // Over the limit: refused before any work, and not recorded (a flood would fill the activity log).
  if (!(await callbackAllowed(request))) {
    logLine('warn', 'single sign-on refused', { reason: 'too_many' });
    countSignIn('oidc', ssoSignInResult('too_many'));
    return backToSignIn('too_many', '/batches');
  }
  const outcome = await finishSsoSignIn(settings, ssoPeople(settings), {
    request,
    cookies,
    redirectUri: redirectUriOf(request),
  });
  countSignIn('oidc', ssoSignInResult(outcome.ok ? null : outcome.reason));
  return outcome.ok ? redirectTo(outcome.next) : backToSignIn(outcome.reason, outcome.next);
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
