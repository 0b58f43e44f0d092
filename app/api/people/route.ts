import type { PersonRef } from '@/lib/contract/alerts';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/**
 * The organisation's people as any member may see them (to pick an alert's recipients): name and e-mail of
 * everyone not disabled; roles, sessions and invitations stay on the administrators' page.
 */
export const GET = route({ auth: true }, async ({ actor }) => {
  const members = await settingsStore().people.members(actor.organisation.id);
  const people: PersonRef[] = members.filter((m) => !m.disabled).map(({ email, name }) => ({ email, name }));
  return Response.json({ people });
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
