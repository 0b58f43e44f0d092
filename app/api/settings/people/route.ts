import type { PersonRef } from '@/lib/contract/alerts';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { settingsStore } from '@/lib/server/settings';

/**
 * The organisation's people who can receive what it sends (reports, alerts): name and e-mail of everyone not
 * disabled, by name. For editors and administrators, who choose the recipients.
 */
export const GET = route({ auth: 'editor', what: 'choosing the recipients of a report' }, async ({ actor }) => {
  const members = await settingsStore().people.members(actor.organisation.id);
  const people: PersonRef[] = members.filter((m) => !m.disabled).map(({ email, name }) => ({ email, name }));
  return Response.json({ people });
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
