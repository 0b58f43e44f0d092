import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { linkFor, mailLink } from '@/lib/server/people/invite';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/**
 * A one-time link (valid 24 hours, shown once) with which the member sets a new password; an earlier one stops
 * working. E-mailed to them too when mail is set up (`emailed`).
 */
export const POST = route({ auth: 'admin', what: 'issuing password resets' }, async (ctx) => {
  const member = await settingsStore().people.member(ctx.actor.organisation.id, pathSegment(ctx.request, -2));
  const resetUrl = await linkFor(ctx, member.id, 'reset');
  await recordActivity(ctx, 'password_reset_issued', { subject: member.email });
  const person = await settingsStore().people.byEmail(member.email);
  const emailed = await mailLink(ctx, { email: member.email, language: person?.language ?? null }, 'reset', resetUrl);
  return Response.json({ resetUrl, emailed }, { status: 201 });
});

export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ POST });
