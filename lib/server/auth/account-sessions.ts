import 'server-only';
import type { AccountSession } from '../../contract/people';
import { settingsStore } from '../settings';
import type { Actor } from './actor';
import { browserName } from './browser-name';

/** The person's live sessions as their account page lists them: a handle for each, never its id. */
export async function sessionsOf(actor: Actor): Promise<AccountSession[]> {
  const live = await settingsStore().sessions.liveOf(actor.person.id, Date.now());
  return live.map((s) => ({
    id: s.handle,
    current: s.id === actor.session.id,
    browser: browserName(s.userAgent),
    address: s.address,
    signedInAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    method: s.method,
  }));
}
