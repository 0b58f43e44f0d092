import 'server-only';
import { AppError } from '../http/app-error';
import { SLUG } from '../org/slug';
import type { Organisation } from '../org/organisations-store';
import type { Role } from '../people/roles';
import type { LoadedSession, SessionMethod } from './session-store';

/** Who makes a request, and for which organisation: what every authenticated route handler is handed. */
export type Actor = {
  session: { id: string; createdAt: number; lastSeenAt: number; expiresAt: number; method: SessionMethod };
  person: { id: string; email: string; name: string; language: string | null; timeZone: string | null };
  organisation: Organisation;
  role: Role;
  /** Every organisation of the person, by name, with their role there. */
  memberships: { organisation: Organisation; role: Role }[];
};

/** `org=` as a request may give it: a slug, else nothing (the person's default organisation). */
export function orgParamProblem(slug: string): string | null {
  return SLUG.test(slug) ? null : 'must be an organisation slug (lower-case letters, digits and dashes)';
}

/**
 * The organisation a request acts for: the one `slug` names when the person is a member of it (403 when not:
 * another organisation's data is never shown instead), else their default organisation while they are still
 * a member of it, else their first by name.
 */
export function actorOf(loaded: LoadedSession, slug: string | undefined): Actor {
  const memberships = loaded.memberships.map(({ role, ...organisation }) => ({ organisation, role }));
  const chosen =
    slug !== undefined
      ? memberships.find((m) => m.organisation.slug === slug)
      : (memberships.find((m) => m.organisation.id === loaded.person.defaultOrganisationId) ?? memberships[0]);
  if (!chosen) {
    throw slug !== undefined
      ? new AppError('not_member', 'you are not a member of this organisation', { field: 'org' })
      : new AppError('not_member', 'you are not a member of any organisation; ask an administrator to add you', {
          field: 'org',
        });
  }
  const { id, email, name, language, timeZone } = loaded.person;
  return {
    session: {
      id: loaded.id,
      createdAt: loaded.createdAt,
      lastSeenAt: loaded.lastSeenAt,
      expiresAt: loaded.expiresAt,
      method: loaded.method,
    },
    person: { id, email, name, language, timeZone },
    organisation: chosen.organisation,
    role: chosen.role,
    memberships,
  };
}
