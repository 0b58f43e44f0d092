import 'server-only';
import { AppError } from '../http/app-error';
import { recordEntry } from '../audit/record';
import { clientAddress } from '../http/client-address';
import { getConfig } from '../config';
import { settingsStore } from '../settings';
import { sessions, type SessionCookies } from './sessions';
import type { SessionMethod } from './session-store';

export type StartSession = {
  /** The person who proved who they are (a password checked, an ID token verified). */
  personId: string;
  method: SessionMethod;
  /** The request that signs in: its browser and address are kept with the session. */
  request: Request;
  /** The route's cookies (the route wrapper's `ctx.cookies`): the session cookie is written there. */
  cookies: SessionCookies;
};

/**
 * The one way a session begins, whatever proved the person (a password, single sign-on): a new session row
 * and cookie (the browser's previous session signed out), and a `sign_in` entry in the activity log. A
 * disabled person gets none (403).
 */
export async function startSession({
  personId,
  method,
  request,
  cookies,
}: StartSession): Promise<{ sessionId: string }> {
  const store = settingsStore();
  const person = await store.people.byId(personId);
  if (!person) throw new AppError('not_signed_in', 'no such person', { field: 'session' });
  const address = clientAddress(request, getConfig().trustedProxyHops);
  if (person.disabled) {
    await recordEntry({
      organisationId: null,
      actor: { id: person.id, email: person.email, name: person.name },
      action: 'sign_in',
      subject: person.email,
      after: { method, result: 'refused' },
      address,
      method,
    });
    throw new AppError('account_disabled', 'this account is disabled; ask an administrator of your organisation', {
      field: 'email',
    });
  }
  const sessionId = await sessions().start(cookies, {
    personId,
    method,
    userAgent: request.headers.get('user-agent') ?? '',
    address,
  });
  await recordEntry({
    organisationId: null,
    actor: { id: person.id, email: person.email, name: person.name },
    action: 'sign_in',
    subject: person.email,
    after: { method, result: 'ok' },
    address,
    method,
  });
  // Now and then, rows long past their end go (a sign-in is a moment when a little work is expected).
  if (Math.random() < 0.02) void store.sessions.prune(Date.now()).catch(() => undefined);
  return { sessionId };
}
