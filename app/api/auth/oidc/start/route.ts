import { z } from 'zod';
import { getConfig } from '@/lib/server/config';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { backToSignIn, redirectTo, redirectUriOf } from '@/lib/server/auth/oidc/answers';
import { ssoPeople } from '@/lib/server/auth/oidc/people';
import { startSsoSignIn } from '@/lib/server/auth/oidc/sign-in';
import { safeNextPath } from '@/lib/safe-next';

/**
 * `GET /api/auth/oidc/start?next=<path>`: sends the browser to the OpenID provider (the sign-in page's
 * `Sign in with <name>` link). Any other parameter is ignored: a person follows this link, and what goes
 * wrong sends them back to the sign-in page with a sentence, never an error page.
 */
// A link people follow (and may have copied with more in it): `next` is read, anything else is let be.
const StartQuerySchema = z.looseObject({ next: z.string().max(2048).optional() });

export const GET = route({ auth: false, query: StartQuerySchema }, async ({ request, cookies, query }) => {
  const next = query.next;
  const settings = getConfig().oidc;
  if (!settings) return backToSignIn('not_configured', safeNextPath(next));
  const start = await startSsoSignIn(settings, ssoPeople(settings), {
    request,
    cookies,
    redirectUri: redirectUriOf(request),
    next,
  });
  return start.ok ? redirectTo(start.url.href) : backToSignIn(start.reason, start.next);
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
