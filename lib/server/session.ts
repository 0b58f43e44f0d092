import 'server-only';
import { randomBytes } from 'node:crypto';
import { sealData } from 'iron-session';
import { AppError } from './app-error';
import { getConfig } from './config';
import type { RevocationStore } from './revocations';
import { revocationStore } from './shared-stores';
import { sealingPassword } from './auth/session-keys';
import { SealedSessionCache } from './sealed-sessions';
import { isHttps, judgeSession, needsTouch, SESSION_COOKIE, sessionCookieName, type SessionData, type SessionLimits } from './session-rules';

/** The raw value of a cookie in a `Cookie` header (the first of that name), as the browser sent it: not decoded. */
function cookieIn(header: string | null, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** The session cookie a page request carries, under the name this request's scheme calls for (see sessionCookieName). */
export function sessionCookieValue(headers: Headers): string | undefined {
  return cookieIn(headers.get('cookie'), sessionCookieName({ headers }));
}

/**
 * The cookies of one request: what the browser sent (the Request) and what to send back. The session writes
 * `Set-Cookie` lines onto `outgoing`, and the route wrapper copies them onto the answer it sends, so the
 * session works from a plain Request and Response: no Next.js request scope, testable in Vitest.
 */
export class SessionCookies {
  readonly outgoing = new Response(null);

  constructor(readonly request: Request) {}

  /** The raw value of a cookie the browser sent. */
  get(name: string): string | undefined {
    return cookieIn(this.request.headers.get('cookie'), name);
  }

  /** Copies what the session wrote onto `response`. */
  applyTo(response: Response): Response {
    for (const cookie of this.outgoing.headers.getSetCookie()) response.headers.append('set-cookie', cookie);
    return response;
  }
}

export type SessionSettings = SessionLimits & {
  /** Every session secret by its id: each opens a seal (secret rotation). */
  passwords: Record<string, string>;
  /** The current secret: new seals are made with it. */
  secret: string;
};

const REFUSED = {
  missing: ['not_signed_in', 'not signed in'],
  expired: ['session_expired', 'expired; sign in again'],
  idle: ['session_idle', 'ended after inactivity; sign in again'],
  revoked: ['session_revoked', 'signed out; sign in again'],
} as const;

/** Browsers keep no cookie longer than this (name, value and attributes), as iron-session's own check. */
const MAX_COOKIE_LENGTH = 4096;

/**
 * Sessions in a sealed cookie (iron-session's seal): who signed in, with the credentials the server needs to
 * fetch new tokens, judged on every request against the absolute lifetime, the idle timeout and the revocation
 * list. The incoming cookie is only ever read through the SealedSessionCache, which takes nothing but an exact
 * seal of ours and never throws; the outgoing one is sealed with `sealData` into a Set-Cookie line of our own.
 * (iron-session's getIronSession would unseal the incoming cookie again, and throws on some malformed ones:
 * sign-in and sign-out must work whatever the browser sends.)
 */
export class Sessions {
  private sealed: SealedSessionCache;

  constructor(
    private settings: SessionSettings,
    private revocations: RevocationStore,
  ) {
    this.sealed = new SealedSessionCache(settings.passwords, settings.ttlS);
  }

  /**
   * The live session of this request, or an AppError that says why not. Slides the idle timeout: the cookie
   * is re-sealed at most once a minute (needsTouch), for the time the session has left.
   */
  async require(cookies: SessionCookies): Promise<SessionData> {
    const data = await this.peek(cookies);
    const now = Date.now();
    const verdict = await this.verdict(data, now);
    if (verdict !== 'live') {
      const [code, message] = REFUSED[verdict];
      throw new AppError(code, message, { field: 'session' });
    }
    const live = data as SessionData;
    const touch = needsTouch(live, this.settings, now);
    if (touch) await this.write(cookies, { ...live, lastSeenAt: now }, (live.createdAt + this.settings.ttlS * 1000 - now) / 1000);
    const { sid, clientId, clientSecret, createdAt } = live;
    return { sid, clientId, clientSecret, createdAt, lastSeenAt: touch ? now : live.lastSeenAt };
  }

  /** The signed-in session behind a cookie value, for a page render (no sliding: the page's API calls slide it). */
  async read(sealed: string | undefined): Promise<SessionData | null> {
    const data = await this.sealed.open<SessionData>(sealed);
    return (await this.verdict(data, Date.now())) === 'live' ? (data as SessionData) : null;
  }

  /** A new session (new id) on every sign-in; a session this browser held before is revoked. */
  async start(cookies: SessionCookies, credentials: { clientId: string; clientSecret: string }): Promise<void> {
    await this.revokeCurrent(await this.peek(cookies));
    const now = Date.now();
    const { clientId, clientSecret } = credentials;
    await this.write(cookies, { sid: randomBytes(18).toString('base64url'), clientId, clientSecret, createdAt: now, lastSeenAt: now }, this.settings.ttlS);
  }

  async end(cookies: SessionCookies): Promise<void> {
    await this.revokeCurrent(await this.peek(cookies));
    const name = sessionCookieName(cookies.request);
    // Revocation already refuses it; this also drops the opened copy (and its secret) from memory.
    this.sealed.forget(cookies.get(name));
    cookies.outgoing.headers.append('set-cookie', this.cookieLine(cookies, name, '', 0));
    // Over https a plain tsb_session is never read; one the browser still sends (kept from plain http, or
    // planted by a sibling host) is cleared too, as far as a host-only line can.
    if (name !== SESSION_COOKIE && cookies.get(SESSION_COOKIE) !== undefined) {
      cookies.outgoing.headers.append('set-cookie', this.cookieLine(cookies, SESSION_COOKIE, '', 0));
    }
  }

  /** The session sealed in this request's cookie, opened once per cookie value (see SealedSessionCache). */
  private peek(cookies: SessionCookies): Promise<Partial<SessionData>> {
    return this.sealed.open<SessionData>(cookies.get(sessionCookieName(cookies.request)));
  }

  /** Lifetime rules first, then the revocation list. */
  private async verdict(session: Partial<SessionData>, now: number): Promise<keyof typeof REFUSED | 'live'> {
    const verdict = judgeSession(session, this.settings, now);
    if (verdict !== 'live') return verdict;
    return (await this.revocations.isRevoked(session.sid!)) ? 'revoked' : 'live';
  }

  /** Seals `data` (the seal lives the whole ttl, as iron-session's own) into the cookie, for `maxAgeS` seconds. */
  private async write(cookies: SessionCookies, data: SessionData, maxAgeS: number): Promise<void> {
    const seal = await sealData(data, { password: sealingPassword(this.settings.secret), ttl: this.settings.ttlS });
    const line = this.cookieLine(cookies, sessionCookieName(cookies.request), seal, maxAgeS);
    if (line.length > MAX_COOKIE_LENGTH) {
      throw new AppError('invalid_input', 'too long to keep in the session cookie', { field: 'clientSecret' });
    }
    cookies.outgoing.headers.append('set-cookie', line);
  }

  /**
   * A Set-Cookie line: HttpOnly, SameSite=Lax, Path=/, no Domain, Secure over https (a `__Host-` name requires
   * all three). It lives exactly as long as the session has left, said both as Max-Age and, for clients that
   * read only that, as Expires; `maxAgeS` 0 clears it (Max-Age=0 and an Expires in the past).
   */
  private cookieLine(cookies: SessionCookies, name: string, value: string, maxAgeS: number): string {
    const maxAge = maxAgeS > 0 ? Math.max(1, Math.floor(maxAgeS)) : 0;
    const expires = new Date(maxAge > 0 ? Date.now() + maxAge * 1000 : 0);
    const secure = isHttps(cookies.request) ? '; Secure' : '';
    return `${name}=${value}; Max-Age=${maxAge}; Path=/; Expires=${expires.toUTCString()}; HttpOnly${secure}; SameSite=Lax`;
  }

  private async revokeCurrent(session: Partial<SessionData>) {
    if (session.sid && session.createdAt) await this.revocations.revoke(session.sid, session.createdAt + this.settings.ttlS * 1000);
  }
}

const holder = globalThis as unknown as { __sessions?: Sessions };

/** The process's sessions, from the configuration (one revocation list: memory, or Redis when REDIS_URL is set). */
export function sessions(): Sessions {
  const config = getConfig();
  holder.__sessions ??= new Sessions(
    { passwords: config.sessionPasswords, secret: config.sessionSecret, ttlS: config.sessionTtlS, idleS: config.sessionIdleS },
    revocationStore(),
  );
  return holder.__sessions;
}
