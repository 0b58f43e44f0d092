import 'server-only';
import { randomBytes } from 'node:crypto';
import { getIronSession, type IronSession, type SessionOptions } from 'iron-session';
import { cookies } from 'next/headers';
import { ApiError } from './api-error';
import { getConfig } from './config';
import { MemoryRevocationStore, type RevocationStore } from './revocations';
import { sharedRedis } from './redis-connection';
import { RedisRevocationStore } from './redis-stores';
import { SealedSessionCache } from './sealed-sessions';
import { judgeSession, needsTouch, SESSION_COOKIE, type SessionData } from './session-rules';

const holder = globalThis as unknown as { __revocations?: RevocationStore; __sealedSessions?: SealedSessionCache };
const revocations = (): RevocationStore =>
  (holder.__revocations ??= getConfig().redisUrl ? new RedisRevocationStore(sharedRedis()) : new MemoryRevocationStore());
const sealedSessions = () => (holder.__sealedSessions ??= new SealedSessionCache(getConfig().sessionPasswords, getConfig().sessionTtlS));

/** The cookie lives exactly as long as the session has left (iron-session's own default would be ttl - 60 s). */
function options(secure: boolean, maxAgeS = getConfig().sessionTtlS): SessionOptions {
  const config = getConfig();
  return {
    cookieName: SESSION_COOKIE,
    password: config.sessionPasswords,
    ttl: config.sessionTtlS,
    cookieOptions: { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: Math.max(1, Math.floor(maxAgeS)) },
  };
}

/** `Secure` whenever the app is reached over https (directly or behind a TLS-terminating proxy). */
export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(':', '')) === 'https';
}

async function open(request: Request): Promise<IronSession<Partial<SessionData>>> {
  return getIronSession<Partial<SessionData>>(await cookies(), options(isHttps(request)));
}

const limits = () => ({ ttlS: getConfig().sessionTtlS, idleS: getConfig().sessionIdleS });

const DETAILS = {
  missing: 'session: not signed in',
  expired: 'session: expired; sign in again',
  idle: 'session: ended after inactivity; sign in again',
  revoked: 'session: signed out; sign in again',
} as const;

/** Lifetime rules first, then the revocation list: why a cookie does not (or does) open a session. */
async function verdictOf(session: Partial<SessionData>, now: number): Promise<keyof typeof DETAILS | 'live'> {
  const verdict = judgeSession(session, limits(), now);
  if (verdict !== 'live') return verdict;
  return (await revocations().isRevoked(session.sid!)) ? 'revoked' : 'live';
}

/** The session sealed in this request's cookie, opened once per cookie value (see SealedSessionCache). */
async function peek(): Promise<Partial<SessionData>> {
  return sealedSessions().open<SessionData>((await cookies()).get(SESSION_COOKIE)?.value);
}

/**
 * The live session of this request, or a 401 that says why. Slides the idle timeout: the cookie is
 * re-sealed at most once a minute (needsTouch), through iron-session as at sign-in.
 */
export async function requireSession(request: Request): Promise<SessionData> {
  const data = await peek();
  const now = Date.now();
  const verdict = await verdictOf(data, now);
  if (verdict !== 'live') throw new ApiError(401, DETAILS[verdict]);
  const live = data as SessionData;
  const touch = needsTouch(live, limits(), now);
  if (touch) {
    const session = await open(request);
    Object.assign(session, { ...live, lastSeenAt: now });
    session.updateConfig(options(isHttps(request), (live.createdAt + limits().ttlS * 1000 - now) / 1000));
    await session.save();
  }
  const { sid, clientId, clientSecret, createdAt } = live;
  return { sid, clientId, clientSecret, createdAt, lastSeenAt: touch ? now : live.lastSeenAt };
}

/** The signed-in session for a page render (no sliding: pages are followed by API calls that slide it). */
export async function readSession(): Promise<SessionData | null> {
  const data = await peek();
  return (await verdictOf(data, Date.now())) === 'live' ? (data as SessionData) : null;
}

/** A new session (new id) on every sign-in; a session this browser held before is revoked. */
export async function startSession(request: Request, credentials: { clientId: string; clientSecret: string }) {
  const session = await open(request);
  await revokeCurrent(session);
  const now = Date.now();
  Object.assign(session, { sid: randomBytes(18).toString('base64url'), ...credentials, createdAt: now, lastSeenAt: now });
  await session.save();
}

export async function endSession(request: Request) {
  const session = await open(request);
  await revokeCurrent(session);
  // Revocation already refuses it; this also drops the opened copy (and its secret) from memory.
  sealedSessions().forget((await cookies()).get(SESSION_COOKIE)?.value);
  session.destroy();
}

async function revokeCurrent(session: Partial<SessionData>) {
  if (session.sid && session.createdAt) {
    await revocations().revoke(session.sid, session.createdAt + getConfig().sessionTtlS * 1000);
  }
}
