import 'server-only';
import { AppError } from '../http/app-error';
import { recordEntry } from '../audit/record';
import { settingsStore } from '../settings';
import type { Role } from './roles';

export type SsoPerson = {
  email: string;
  name: string;
  /** The organisation a new person joins (OIDC_ORGANISATION); unset: the only organisation, when there is one. */
  organisationSlug?: string;
  /**
   * The role the provider's claim gives (re-read at every sign-in). Unset when no role claim is configured:
   * a member keeps their role, a new one is a viewer.
   */
  role?: Role;
};

/**
 * The person behind a single sign-on, matched by e-mail address whatever its case (someone invited by e-mail
 * is that person: their open invites count as accepted), created when new, and made a member of the
 * organisation single sign-on serves with the claim's role. With several organisations and none named, a
 * member of some signs in to theirs with their roles as they are; only someone new needs an organisation to
 * join (else a 403). A disabled person is refused (403). Their id is for startSession.
 */
export async function upsertSsoPerson({
  email,
  name,
  organisationSlug,
  role,
}: SsoPerson): Promise<{ personId: string; organisationId: string | null; created: boolean }> {
  const store = settingsStore();
  const found = await store.people.byEmail(email);
  if (found?.disabled)
    throw new AppError('account_disabled', 'this account is disabled; ask an administrator of your organisation', {
      field: 'email',
    });
  const organisation = organisationSlug ? await store.organisations.bySlug(organisationSlug) : await onlyOrganisation();
  if (organisationSlug && !organisation)
    throw new AppError('not_member', `no organisation "${organisationSlug}" here (OIDC_ORGANISATION)`, {
      field: 'org',
    });
  const memberships = found ? await store.people.memberships(found.id) : [];
  if (!organisation && memberships.length === 0) {
    throw new AppError(
      'not_member',
      'this dashboard has several organisations; OIDC_ORGANISATION names the one new people join',
      { field: 'org' },
    );
  }
  const person = found ?? (await store.people.create({ email, name }));
  if (!person.name && name) await store.people.updateProfile(person.id, { name });
  if (organisation)
    await joinWithRole(organisation.id, { id: person.id, email: person.email, name: person.name || name }, role);
  await store.links.acceptInvites(person.id);
  return { personId: person.id, organisationId: organisation?.id ?? null, created: !found };
}

/** Makes the person a member with the claim's role (else the one they have, else viewer), logging a change. */
async function joinWithRole(
  organisationId: string,
  actor: { id: string; email: string; name: string },
  role: Role | undefined,
) {
  const store = settingsStore();
  const current = await store.people.roleIn(organisationId, actor.id);
  const next = role ?? current ?? 'viewer';
  if (current === next) return;
  await store.people.setMembership(organisationId, actor.id, next);
  await recordEntry({
    organisationId,
    actor,
    action: current ? 'role_changed' : 'person_joined',
    subject: actor.email,
    before: current ? { role: current } : undefined,
    after: { role: next, by: 'oidc' },
    address: null,
    method: 'oidc',
  });
}

/** The organisation single sign-on people join when OIDC_ORGANISATION names none: the only one, if there is one. */
export async function onlyOrganisation() {
  const all = await settingsStore().organisations.list();
  return all.length === 1 ? all[0]! : null;
}
