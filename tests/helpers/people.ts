import {
  PERSON_ROLES,
  SANDBOX_ORGANISATIONS,
  sandboxPerson,
  sandboxProvisioning,
  type PersonRole,
  type SandboxSlug,
} from '../../scripts/sandbox-people';

/** A person the tests sign in as: e-mail and password, their organisation (slug, name and sandbox client ID) and role there. */
export type TestPerson = {
  email: string;
  password: string;
  name: string;
  org: SandboxSlug;
  orgName: string;
  clientId: string;
  role: PersonRole;
};

/** Fixed test passwords (12+ characters, as the app requires). */
const passwordOf = (slug: SandboxSlug, role: PersonRole) => `${role}-of-${slug}-e2e-password`;

/** A person of each role in every sandbox organisation. */
export const PEOPLE = Object.fromEntries(
  SANDBOX_ORGANISATIONS.map(({ slug, name: orgName, clientId }) => [
    slug,
    Object.fromEntries(
      PERSON_ROLES.map((role) => [
        role,
        {
          ...sandboxPerson(slug, role),
          password: passwordOf(slug, role),
          org: slug,
          orgName,
          clientId,
          role,
        } satisfies TestPerson,
      ]),
    ),
  ]),
) as Record<SandboxSlug, Record<PersonRole, TestPerson>>;

/** The provisioning file the test apps start with: every sandbox organisation and all those people. */
export const TEST_PROVISIONING = sandboxProvisioning(
  SANDBOX_ORGANISATIONS.flatMap(({ slug }) =>
    PERSON_ROLES.map((role) => ({ slug, role, password: passwordOf(slug, role) })),
  ),
);

/** The test apps' CREDENTIALS_KEY (32 bytes, base64): known here so that tests can look for the secrets it encrypts. */
export const TEST_CREDENTIALS_KEY = Buffer.alloc(32, 7).toString('base64');
