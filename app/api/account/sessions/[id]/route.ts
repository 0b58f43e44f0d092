import { AppError } from '@/lib/server/http/app-error';
import { recordActivity } from '@/lib/server/audit/record';
import { browserName } from '@/lib/server/auth/browser-name';
import { otherMethods } from '@/lib/server/http/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** Signs out one of the person's own sessions, by the handle their account page lists it with (404 for any other). */
export const DELETE = route({ auth: true }, async (ctx) => {
  const handle = pathSegment(ctx.request, -1);
  const store = settingsStore().sessions;
  const live = await store.liveOf(ctx.actor.person.id, Date.now());
  const target = live.find((s) => s.handle === handle);
  if (!target) throw new AppError('not_found', 'no session of yours with this id', { field: 'id' });
  await store.revoke(target.id);
  await recordActivity(
    ctx,
    'sessions_revoked',
    { subject: ctx.actor.person.email, after: { sessions: 1, browser: browserName(target.userAgent) } },
    null,
  );
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH } = otherMethods({ DELETE });
