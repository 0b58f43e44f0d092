import { recordActivity } from '@/lib/server/audit/record';
import { sessionsOf } from '@/lib/server/auth/account-sessions';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** The person's live sessions, the most recently used first: browser, address, when signed in and last seen. */
export const GET = route({ auth: true }, async ({ actor }) => Response.json({ sessions: await sessionsOf(actor) }));

/** Signs out every other session of the person (this one stays). */
export const DELETE = route({ auth: true }, async (ctx) => {
  const revoked = await settingsStore().sessions.revokeAllOf(ctx.actor.person.id, ctx.actor.session.id);
  await recordActivity(
    ctx,
    'sessions_revoked',
    { subject: ctx.actor.person.email, after: { sessions: revoked, others: true } },
    null,
  );
  return new Response(null, { status: 204 });
});

export const { HEAD, OPTIONS, POST, PUT, PATCH } = otherMethods({ GET, DELETE });
