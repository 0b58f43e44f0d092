import type { MemberEntry } from '@/lib/contract/people';
import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { MemberChangeSchema } from '@/lib/server/people/api-schemas';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/**
 * Changes a member's role (from their next request on) and/or disables or enables them (every session of
 * theirs refused at once, on every instance). 409 when the organisation would be left without an administrator.
 */
export const PATCH = route(
  { auth: 'admin', what: 'changing people’s roles', body: MemberChangeSchema },
  async (ctx) => {
    const people = settingsStore().people;
    const organisationId = ctx.actor.organisation.id;
    const before = await people.member(organisationId, pathSegment(ctx.request, -1));
    const { role, disabled } = ctx.body;
    if (role !== undefined && role !== before.role) {
      await people.changeRole(organisationId, before.id, role);
      await recordActivity(ctx, 'role_changed', {
        subject: before.email,
        before: { role: before.role },
        after: { role },
      });
    }
    if (disabled !== undefined && disabled !== before.disabled) {
      await people.setDisabled(before.id, disabled, organisationId);
      await recordActivity(ctx, disabled ? 'person_disabled' : 'person_enabled', { subject: before.email });
    }
    return Response.json((await people.member(organisationId, before.id)) satisfies MemberEntry);
  },
);

/** Takes the person out of the organisation: their own views go, what they shared stays the organisation's. */
export const DELETE = route({ auth: 'admin', what: 'removing people' }, async (ctx) => {
  const people = settingsStore().people;
  const member = await people.member(ctx.actor.organisation.id, pathSegment(ctx.request, -1));
  await people.removeMember(ctx.actor.organisation.id, member.id);
  await recordActivity(ctx, 'person_removed', { subject: member.email, before: { role: member.role } });
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, OPTIONS, POST, PUT } = otherMethods({ PATCH, DELETE });
