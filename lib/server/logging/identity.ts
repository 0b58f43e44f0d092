import 'server-only';
import { createHash, createHmac } from 'node:crypto';
import { getConfig } from '../config';
import { noteRequestIdentity } from '../request-context';

const holder = globalThis as unknown as { __logIdKey?: Buffer };

/** A key for log ids, derived from the newest session secret: the same on every instance, unknown outside. */
function logIdKey(): Buffer {
  if (!holder.__logIdKey) {
    const { sessionPasswords } = getConfig();
    const newest = sessionPasswords[String(Math.max(...Object.keys(sessionPasswords).map(Number)))]!;
    holder.__logIdKey = createHash('sha256').update('tray-scan-dashboard log ids\0').update(newest).digest();
  }
  return holder.__logIdKey;
}

/**
 * A stable id of an organisation's client ID for logs: an HMAC, so the same organisation reads alike in every
 * line and on every instance, while a line does not give the client ID away (nor can a guessed one be
 * checked against it without the session secret).
 */
export function organisationLogId(clientId: string): string {
  return `org_${createHmac('sha256', logIdKey()).update(clientId).digest('base64url').slice(0, 16)}`;
}

/** Names the session's organisation in the current request's log line (no person yet: a session is an organisation's). */
export function noteSessionIdentity(session: { clientId: string }): void {
  noteRequestIdentity({ organisationId: organisationLogId(session.clientId) });
}
