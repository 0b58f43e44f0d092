import 'server-only';
import { createHmac, hkdfSync } from 'node:crypto';
import { getConfig } from '../config';

/** What the browser's range cache needs from a live session: its key, a name for it, and the organisation's scope. */
export type CacheKey = {
  /** 32 bytes, base64url: AES-GCM-256 (the browser imports it non-extractable and keeps it in memory only). */
  key: string;
  /** Names the key without revealing it: entries sealed under another key are dropped without trying them. */
  keyId: string;
  /** Names the organisation (not its id) in the browser's store: one organisation never reads another's entries. */
  scope: string;
};

/** The secret that seals new sessions (SESSION_SECRET). */
function currentSecret(): string {
  return getConfig().sessionSecret;
}

/**
 * A key for this session and organisation only: HKDF-SHA-256 of the session secret, salted with the session's
 * own id. Sign-out and revocation refuse the session (so the key can no longer be fetched), expiry ends it,
 * and the next sign-in is a new id, hence a new key: what the browser sealed before can no longer be read.
 */
export function cacheKeyFor(session: { sid: string; organisationId: string }, secret = currentSecret()): CacheKey {
  const key = Buffer.from(hkdfSync('sha256', secret, session.sid, `tsb range cache v2\0${session.organisationId}`, 32));
  const keyId = createHmac('sha256', key).update('key id').digest('base64url').slice(0, 16);
  const scope = createHmac('sha256', secret)
    .update(`tsb range cache scope\0${session.organisationId}`)
    .digest('base64url')
    .slice(0, 16);
  return { key: key.toString('base64url'), keyId, scope };
}
