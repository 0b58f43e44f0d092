import 'server-only';
import { AppError } from '../http/app-error';
import type { Actor } from '../auth/actor';
import { languageFor, mailPeopleLink } from '../notify/people-mail';
import { publicOrigin } from '../http/route';
import { settingsStore } from '../settings';
import type { LinkKind } from './links-store';
import type { Role } from './roles';

type Source = { actor: Actor; request: Request };

/** A one-time link for the person, as the administrator copies it: `<origin>/invite/<token>` or `/reset/<token>`. */
export async function linkFor(source: Source, personId: string, kind: LinkKind): Promise<string> {
  const { token } = await settingsStore().links.issue({
    personId,
    organisationId: source.actor.organisation.id,
    kind,
    createdBy: source.actor.person.id,
  });
  return `${publicOrigin(source.request)}/${kind}/${token}`;
}

/**
 * E-mails a link made for `person` when mail is set up (true when sent), in their language or the
 * administrator's; the link is shown to copy either way.
 */
export async function mailLink(
  source: Source,
  person: { email: string; language: string | null },
  kind: LinkKind,
  url: string,
): Promise<boolean> {
  const { actor, request } = source;
  return mailPeopleLink(kind, {
    to: person.email,
    language: languageFor(person.language, actor, request),
    organisation: actor.organisation.name,
    by: actor.person.name || actor.person.email,
    url,
  });
}

/**
 * Makes `email` a member of the actor's organisation with `role`: a new person (or one invited before who
 * never set a password) gets an invite link, e-mailed to them when mail is set up (`emailed`); a member of
 * another organisation who signs in already is added as they are (no link). 409 when they are a member here already.
 */
export async function inviteMember(
  source: Source,
  input: { email: string; role: Role; name?: string },
): Promise<{ id: string; inviteUrl: string | null; emailed: boolean }> {
  const store = settingsStore();
  const organisationId = source.actor.organisation.id;
  let person = await store.people.byEmail(input.email);
  if (person && (await store.people.roleIn(organisationId, person.id)) !== null) {
    throw new AppError('conflict', `${person.email} is a member of ${source.actor.organisation.name} already`, {
      field: 'email',
    });
  }
  person ??= { ...(await store.people.create({ email: input.email, name: input.name })), passwordHash: null };
  await store.people.setMembership(organisationId, person.id, input.role);
  if (person.passwordHash) return { id: person.id, inviteUrl: null, emailed: false };
  const inviteUrl = await linkFor(source, person.id, 'invite');
  return { id: person.id, inviteUrl, emailed: await mailLink(source, person, 'invite', inviteUrl) };
}
