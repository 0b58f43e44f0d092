import 'server-only';
import { AppError } from '../app-error';
import type { Actor } from '../auth/actor';
import { publicOrigin } from '../route';
import { settingsStore } from '../settings';
import type { LinkKind } from './links-store';
import type { Role } from './roles';

type Source = { actor: Actor; request: Request };

/** A one-time link for the person, as the administrator copies it: `<origin>/invite/<token>` or `/reset/<token>`. */
export async function linkFor(source: Source, personId: string, kind: LinkKind): Promise<string> {
  const { token } = await settingsStore().links.issue({ personId, organisationId: source.actor.organisation.id, kind, createdBy: source.actor.person.id });
  return `${publicOrigin(source.request)}/${kind}/${token}`;
}

/**
 * Makes `email` a member of the actor's organisation with `role`: a new person (or one invited before who
 * never set a password) gets an invite link; a member of another organisation who signs in already is added
 * as they are (no link). 409 when they are a member here already.
 */
export async function inviteMember(source: Source, input: { email: string; role: Role; name?: string }): Promise<{ id: string; inviteUrl: string | null }> {
  const store = settingsStore();
  const organisationId = source.actor.organisation.id;
  let person = await store.people.byEmail(input.email);
  if (person && (await store.people.roleIn(organisationId, person.id)) !== null) {
    throw new AppError('conflict', `${person.email} is a member of ${source.actor.organisation.name} already`, { field: 'email' });
  }
  person ??= { ...(await store.people.create({ email: input.email, name: input.name })), passwordHash: null };
  await store.people.setMembership(organisationId, person.id, input.role);
  return { id: person.id, inviteUrl: person.passwordHash ? null : await linkFor(source, person.id, 'invite') };
}
