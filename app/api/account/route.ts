import type { AccountInfo } from '@/lib/contract/people';
import { AppError } from '@/lib/server/http/app-error';
import type { Actor } from '@/lib/server/auth/actor';
import { otherMethods } from '@/lib/server/http/methods';
import { AccountChangeSchema } from '@/lib/server/people/api-schemas';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

async function accountOf(actor: Actor): Promise<AccountInfo> {
  const person = (await settingsStore().people.byId(actor.person.id))!;
  const home = actor.memberships.find((m) => m.organisation.id === person.defaultOrganisationId);
  return {
    email: person.email,
    name: person.name,
    language: person.language,
    timeZone: person.timeZone,
    defaultOrganisation: home?.organisation.slug ?? null,
  };
}

/** The signed-in person's own settings: name, the language and time zone e-mails to them use, where they start. */
export const GET = route({ auth: true }, async ({ actor }) => Response.json(await accountOf(actor)));

/** Changes them; `defaultOrganisation` must be one of the person's organisations. */
export const PATCH = route({ auth: true, body: AccountChangeSchema }, async ({ actor, body }) => {
  const { defaultOrganisation, ...profile } = body;
  let defaultOrganisationId: string | undefined;
  if (defaultOrganisation !== undefined) {
    const home = actor.memberships.find((m) => m.organisation.slug === defaultOrganisation);
    if (!home)
      throw new AppError('not_member', 'you are not a member of this organisation', { field: 'defaultOrganisation' });
    defaultOrganisationId = home.organisation.id;
  }
  await settingsStore().people.updateProfile(actor.person.id, { ...profile, defaultOrganisationId });
  return Response.json(await accountOf(actor));
});

export const { HEAD, OPTIONS, POST, PUT, DELETE } = otherMethods({ GET, PATCH });
