import { randomUUID } from 'node:crypto';
import { CredentialsCipher, parseCredentialsKey } from '@/lib/server/org/credentials-crypto';
import { SettingsStore, type DatabasePlace } from '@/lib/server/settings';
import type { Role } from '@/lib/server/people/roles';
import { TEST_CREDENTIALS_KEY } from './people';

/** The tests' cipher for client secrets, under the tests' CREDENTIALS_KEY. */
export const testCipher = new CredentialsCipher(parseCredentialsKey(TEST_CREDENTIALS_KEY, 'CREDENTIALS_KEY'));

/** The dashboard's database at `place`, as the app opens it. */
export const openStore = (place: DatabasePlace) => SettingsStore.open(place, () => testCipher);

/** A new organisation no other test uses: the tests of one database never see each other's rows. */
export async function newOrganisation(store: SettingsStore, secret?: string) {
  const tag = randomUUID().slice(0, 8);
  return store.organisations.create({ name: `Organisation ${tag}`, clientId: `client-${tag}`, clientSecret: secret });
}

/** A new person, a member of `organisationId` with `role`: who a store call is made for. */
export async function newMember(store: SettingsStore, organisationId: string, role: Role = 'editor') {
  const person = await store.people.create({ email: `${randomUUID().slice(0, 8)}@people.example`, name: `A ${role}` });
  await store.people.setMembership(organisationId, person.id, role);
  return { person, who: { personId: person.id, role } };
}
