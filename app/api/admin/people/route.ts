import type { MemberEntry } from '@/lib/contract/people';
import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { InviteSchema } from '@/lib/server/people/api-schemas';
import { inviteMember } from '@/lib/server/people/invite';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** The organisation's people: role, disabled, last seen, invitation still open. */
export const GET = route({ auth: 'admin', what: 'seeing the organisation’s people' }, async ({ actor }) =>
  Response.json({ people: (await settingsStore().people.members(actor.organisation.id)) satisfies MemberEntry[] }),
);

/**
 * Invites someone by e-mail with a role (201): a one-time link valid 7 days, shown once (`inviteUrl`) and e-mailed to
 * them when mail is set up (`emailed`). Someone who already has a password here (a member of another organisation)
 * is added at once, and `inviteUrl` is null.
 */
export const POST = route({ auth: 'admin', what: 'inviting people', body: InviteSchema }, async (ctx) => {
  const invited = await inviteMember(ctx, ctx.body);
  await recordActivity(ctx, 'person_invited', { subject: ctx.body.email, after: { role: ctx.body.role } });
  return Response.json(invited, { status: 201 });
});

export const { HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ GET, POST });
