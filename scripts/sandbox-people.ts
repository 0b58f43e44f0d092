/**
 * The sandbox's organisations as the app is provisioned with them (PROVISIONING_FILE), and a person of each
 * role in each: for `npm run demo` (passwords made once and kept) and the end-to-end tests (fixed ones).
 */
import {
  DEMO_CREDENTIALS,
  DRIFT_CREDENTIALS,
  EDGE_CREDENTIALS,
  OTHER_CREDENTIALS,
  SPECIAL_CREDENTIALS,
} from '../sandbox/organisations';

export const SANDBOX_ORGANISATIONS = [
  { slug: 'demo', name: 'Greenfield Seeds (demo)', ...DEMO_CREDENTIALS },
  { slug: 'other', name: 'Hillside Growers', ...OTHER_CREDENTIALS },
  { slug: 'special', name: 'Spécial & Co', ...SPECIAL_CREDENTIALS },
  { slug: 'edge', name: 'Edge cases', ...EDGE_CREDENTIALS },
  { slug: 'drift', name: 'Drift Nursery', ...DRIFT_CREDENTIALS },
] as const;

export type SandboxSlug = (typeof SANDBOX_ORGANISATIONS)[number]['slug'];
export const PERSON_ROLES = ['admin', 'editor', 'viewer'] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];

const ROLE_NAMES: Record<PersonRole, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };
const ORG_NAMES: Record<SandboxSlug, string> = {
  demo: 'Demo',
  other: 'Other',
  special: 'Spécial',
  edge: 'Edge',
  drift: 'Drift',
};

/** A sandbox person: `<role>@<slug>.example`, named after both. */
export const sandboxPerson = (slug: SandboxSlug, role: PersonRole) => ({
  email: `${role}@${slug}.example`,
  name: `${ORG_NAMES[slug]} ${ROLE_NAMES[role]}`,
});

/** The PROVISIONING_FILE of the sandbox: its organisations, and the people `roles` names with their passwords. */
export function sandboxProvisioning(people: { slug: SandboxSlug; role: PersonRole; password: string }[]) {
  return {
    organisations: SANDBOX_ORGANISATIONS.map(({ slug, name, clientId, clientSecret }) => ({
      slug,
      name,
      clientId,
      clientSecret,
    })),
    people: people.map(({ slug, role, password }) => ({
      ...sandboxPerson(slug, role),
      password,
      roles: { [slug]: role },
    })),
  };
}
