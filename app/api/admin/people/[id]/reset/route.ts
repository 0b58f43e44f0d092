import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { linkFor } from '@/lib/server/people/invite';
import { route } from '@/lib/server/route';
import { settingsStore } from '@/lib/server/settings';

/** A one-time link (valid 24 hours, shown once) with which the member sets a new password; an earlier one stops working. */
export const POST = route({ auth: 'admin', what: 'issuing password resets' }, async (ctx) => {
  const member = await settingsStore().people.member(ctx.actor.organisation.id, pathSegment(ctx.request, -2));
  const resetUrl = await linkFor(ctx, member.id, 'reset');
  await recordActivity(ctx, 'password_reset_issued', { subject: member.email });
  return Response.json({ resetUrl }, { status: 201 });
});

export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ POST });
