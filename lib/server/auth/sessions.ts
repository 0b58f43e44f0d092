import 'server-only';
import { randomBytes } from 'node:crypto';
import { sealData } from 'iron-session';
import { AppError } from '../http/app-error';
import { getConfig } from '../config';
import { settingsStore } from '../settings';
import { SealedSessionCache } from './sealed-sessions';
import { sealingPassword } from './session-keys';
import {
  isSeal,
  isHttps,
  judgeSession,
  needsTouch,
  SESSION_COOKIE,
  sessionCookieName,
  type SessionLimits,
  type SessionSeal,
} from './session-rules';
import type { LoadedSession, SessionMethod, SessionStore } from './session-store';

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
  /** Every session secret by its id (lib/server/auth/session-keys.ts): each opens a seal (secret rotation). */
  passwords: Record<string, string>;
  /** The current secret: new seals are made with it. */
  secret: string;
};

const REFUSED = {
  missing: ['not_signed_in', 'not signed in'],
  expired: ['session_expired', 'expired; sign in again'],
  idle: ['session_idle', 'ended after inactivity; sign in again'],
  revoked: ['session_revoked', 'signed out; sign in again'],
  disabled: ['session_revoked', 'this account is disabled; ask an administrator of your organisation'],
} as const;

/** What a new session records of where it began. */
export type SessionOrigin = { personId: string; method: SessionMethod; userAgent: string; address: string };

/**
 * Sessions known to the server: the cookie (iron-session's seal) holds only the session's id and start; the
 * session row (lib/server/auth/session-store.ts) decides on every request, read with the person and their
 * organisations in one query. Signing out, an administrator disabling the person or signing their sessions
 * out, and expiry all live in that row: every instance sharing the database refuses the cookie from the next
 * request on, and no restart (of the app or of Redis) brings it back. The incoming cookie is only ever read
 * through the SealedSessionCache, which takes nothing but an exact seal of ours and never throws.
 */
export class Sessions {
  private sealed: SealedSessionCache;

  constructor(
    private settings: SessionSettings,
    private store: () => SessionStore,
    private now: () => number = () => Date.now(),
  ) {
    this.sealed = new SealedSessionCache(settings.passwords, settings.ttlS);
  }

  /**
   * The live session of this request with its person and organisations, or an AppError that says why not.
   * Slides the idle timeout: the last-seen time is written at most once a minute (needsTouch).
   */
  async require(cookies: SessionCookies): Promise<LoadedSession> {
    const loaded = await this.load(await this.peek(cookies));
    const now = this.now();
    const verdict = judgeSession(loaded && { ...loaded, disabled: loaded.person.disabled }, this.settings, now);
    if (verdict !== 'live') {
      const [code, message] = REFUSED[verdict];
      throw new AppError(code, message, { field: 'session' });
    }
    const live = loaded!;
    if (needsTouch(live.lastSeenAt, this.settings, now)) {
      await this.store().touch(live.id, now);
      return { ...live, lastSeenAt: now };
    }
    return live;
  }

  /** The signed-in session behind a cookie value, for a page render (no sliding: the page's API calls slide it). */
  async read(sealed: string | undefined): Promise<LoadedSession | null> {
    const loaded = await this.load(await this.sealed.open<SessionSeal>(sealed));
    const verdict = judgeSession(loaded && { ...loaded, disabled: loaded.person.disabled }, this.settings, this.now());
    return verdict === 'live' ? loaded : null;
  }

  /** A new session (new id) for the person; a session this browser held before is revoked. The new id. */
  async start(cookies: SessionCookies, origin: SessionOrigin): Promise<string> {
    await this.revokeCurrent(cookies);
    const now = this.now();
    const sid = randomBytes(18).toString('base64url');
    await this.store().create({ id: sid, createdAt: now, expiresAt: now + this.settings.ttlS * 1000, ...origin });
    const seal = await sealData({ sid, createdAt: now } satisfies SessionSeal, {
      password: sealingPassword(this.settings.secret),
      ttl: this.settings.ttlS,
    });
    cookies.outgoing.headers.append(
      'set-cookie',
      this.cookieLine(cookies, sessionCookieName(cookies.request), seal, this.settings.ttlS),
    );
    return sid;
  }

  /** Signs this browser's session out (revoked for good) and clears the cookie; the session it was, if it was live. */
  async end(cookies: SessionCookies): Promise<LoadedSession | null> {
    const ended = await this.revokeCurrent(cookies);
    const name = sessionCookieName(cookies.request);
    this.sealed.forget(cookies.get(name));
    cookies.outgoing.headers.append('set-cookie', this.cookieLine(cookies, name, '', 0));
    // Over https a plain tsb_session is never read; one the browser still sends (kept from plain http, or
    // planted by a sibling host) is cleared too, as far as a host-only line can.
    if (name !== SESSION_COOKIE && cookies.get(SESSION_COOKIE) !== undefined) {
      cookies.outgoing.headers.append('set-cookie', this.cookieLine(cookies, SESSION_COOKIE, '', 0));
    }
    return ended;
  }

  /** The session sealed in this request's cookie, opened once per cookie value (see SealedSessionCache). */
  private peek(cookies: SessionCookies): Promise<Partial<SessionSeal>> {
    return this.sealed.open<SessionSeal>(cookies.get(sessionCookieName(cookies.request)));
  }

  /** The server's record of a sealed session. */
  private async load(seal: Partial<SessionSeal>): Promise<LoadedSession | null> {
    if (!isSeal(seal)) return null;
    const loaded = await this.store().load(seal.sid);
    // The row's own start must be the seal's: a seal is never matched to a row it was not written for.
    return loaded && loaded.createdAt === seal.createdAt ? loaded : null;
  }

  private async revokeCurrent(cookies: SessionCookies): Promise<LoadedSession | null> {
    const loaded = await this.load(await this.peek(cookies));
    if (!loaded || loaded.revoked) return null;
    await this.store().revoke(loaded.id);
    return loaded;
  }

  /**
   * A Set-Cookie line: HttpOnly, SameSite=Lax, Path=/, no Domain, Secure over https (a `__Host-` name requires
   * all three). It lives exactly as long as the session may, said both as Max-Age and, for clients that
   * read only that, as Expires; `maxAgeS` 0 clears it (Max-Age=0 and an Expires in the past).
   */
  private cookieLine(cookies: SessionCookies, name: string, value: string, maxAgeS: number): string {
    const maxAge = maxAgeS > 0 ? Math.max(1, Math.floor(maxAgeS)) : 0;
    const expires = new Date(maxAge > 0 ? this.now() + maxAge * 1000 : 0);
    const secure = isHttps(cookies.request) ? '; Secure' : '';
    return `${name}=${value}; Max-Age=${maxAge}; Path=/; Expires=${expires.toUTCString()}; HttpOnly${secure}; SameSite=Lax`;
  }
}

const holder = globalThis as unknown as { __sessions?: Sessions };

/** The process's sessions, from the configuration, on the process's database. */
export function sessions(): Sessions {
  const config = getConfig();
  holder.__sessions ??= new Sessions(
    {
      passwords: config.sessionPasswords,
      secret: config.sessionSecret,
      ttlS: config.sessionTtlS,
      idleS: config.sessionIdleS,
    },
    () => settingsStore().sessions,
  );
  return holder.__sessions;
}
