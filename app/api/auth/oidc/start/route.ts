import { getConfig } from '@/lib/server/config';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { backToSignIn, redirectTo, redirectUriOf } from '@/lib/server/auth/oidc/answers';
import { ssoPeople } from '@/lib/server/auth/oidc/people';
import { startSsoSignIn } from '@/lib/server/auth/oidc/sign-in';
import { safeNextPath } from '@/lib/safe-next';

/**
 * `GET /api/auth/oidc/start?next=<path>`: sends the browser to the OpenID provider (the sign-in page's
 * `Sign in with <name>` link). Any other parameter is ignored: a person follows this link, and what goes
 * wrong sends them back to the sign-in page with a sentence, never an error page.
 */
export const GET = route({ auth: false }, async ({ request, cookies }) => {
  const next = new URL(request.url).searchParams.get('next') ?? undefined;
  const settings = getConfig().oidc;
  if (!settings) return backToSignIn('not_configured', safeNextPath(next));
  const start = await startSsoSignIn(settings, ssoPeople(settings), { request, cookies, redirectUri: redirectUriOf(request), next });
  return start.ok ? redirectTo(start.url.href) : backToSignIn(start.reason, start.next);
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
