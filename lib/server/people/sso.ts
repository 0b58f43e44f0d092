import 'server-only';
import { AppError } from '../app-error';
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
 * is that person), created when new, and made a member of the organisation with the claim's role. Their id
 * (for startSession). A disabled person is refused (403); an organisation that cannot be told is a 403 too.
 */
export async function upsertSsoPerson({ email, name, organisationSlug, role }: SsoPerson): Promise<{ personId: string; organisationId: string; created: boolean }> {
  const store = settingsStore();
  const organisation = organisationSlug ? await store.organisations.bySlug(organisationSlug) : await onlyOrganisation();
  if (!organisation) {
    throw new AppError('not_member', organisationSlug ? `no organisation "${organisationSlug}" here (OIDC_ORGANISATION)` : 'this dashboard has several organisations; OIDC_ORGANISATION names the one people join', {
      field: 'org',
    });
  }
  let person = await store.people.byEmail(email);
  const created = !person;
  if (!person) person = { ...(await store.people.create({ email, name })), passwordHash: null };
  if (person.disabled) throw new AppError('account_disabled', 'this account is disabled; ask an administrator of your organisation', { field: 'email' });
  if (!person.name && name) await store.people.updateProfile(person.id, { name });
  const actor = { id: person.id, email: person.email, name: person.name || name };
  const current = await store.people.roleIn(organisation.id, person.id);
  const next = role ?? current ?? 'viewer';
  if (current !== next) {
    await store.people.setMembership(organisation.id, person.id, next);
    await recordEntry({
      organisationId: organisation.id,
      actor,
      action: current ? 'role_changed' : 'person_joined',
      subject: person.email,
      before: current ? { role: current } : undefined,
      after: { role: next, by: 'oidc' },
      address: null,
      method: 'oidc',
    });
  }
  return { personId: person.id, organisationId: organisation.id, created };
}

/** The organisation single sign-on people join when OIDC_ORGANISATION names none: the only one, if there is one. */
export async function onlyOrganisation() {
  const all = await settingsStore().organisations.list();
  return all.length === 1 ? all[0]! : null;
}
