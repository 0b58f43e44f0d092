import 'server-only';
import { AppError } from '../http/app-error';
import { recordEntry } from '../audit/record';
import { passwordMatches } from '../people/passwords';
import { settingsStore } from '../settings';
import { guardSignIn } from './sign-in-throttle';
import { startSession } from './start-session';
import type { SessionCookies } from './sessions';

/** The one answer to a wrong password and to an unknown e-mail address alike. */
export const wrongCredentials = () =>
  new AppError('credentials_refused', 'the e-mail or password is not right', { field: 'email' });

/**
 * A sign-in with e-mail and password, throttled per e-mail and address (lib/server/auth/sign-in-throttle.ts).
 * An unknown address is checked against a dummy hash, so that it takes the time a real one takes; a refused
 * password of a real person is in the activity log.
 */
export async function signInWithPassword(input: {
  email: string;
  password: string;
  request: Request;
  cookies: SessionCookies;
  address: string;
}): Promise<void> {
  const { email, password, request, cookies, address } = input;
  const people = settingsStore().people;
  let personId: string | null = null;
  const right = await guardSignIn(address, email, async () => {
    const person = await people.byEmail(email);
    const ok = await passwordMatches(person?.passwordHash, password);
    if (person && !ok) {
      await recordEntry({
        organisationId: null,
        actor: { id: person.id, email: person.email, name: person.name },
        action: 'sign_in',
        subject: person.email,
        after: { method: 'password', result: 'refused' },
        address,
        method: 'password',
      });
    }
    if (ok) personId = person!.id;
    return ok;
  });
  if (!right || !personId) throw wrongCredentials();
  await startSession({ personId, method: 'password', request, cookies });
}
