import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** Signs out every session of a member, on every instance, from their next request on. */
export const DELETE = route({ auth: 'admin', what: 'signing people out' }, async (ctx) => {
  const store = settingsStore();
  const member = await store.people.member(ctx.actor.organisation.id, pathSegment(ctx.request, -2));
  const revoked = await store.sessions.revokeAllOf(member.id);
  await recordActivity(ctx, 'sessions_revoked', { subject: member.email, after: { sessions: revoked } });
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH } = otherMethods({ DELETE });
