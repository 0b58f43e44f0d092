import { sealData } from 'iron-session';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/server/http/app-error';
import { sealingPassword, sessionPasswordsOf } from '@/lib/server/auth/session-keys';
import type { LoadedSession, SessionStore } from '@/lib/server/auth/session-store';
import { SessionCookies, Sessions } from '@/lib/server/auth/sessions';
import { SESSION_COOKIE } from '@/lib/server/auth/session-rules';
import { reportedBrokenSeals } from '../helpers/broken-seals';

const HOST_COOKIE = `__Host-${SESSION_COOKIE}`;
const OLD = 'previous-session-secret-0123456789-abcdef';
const NEW = 'current-session-secret-0123456789-abcdefgh';
const PERSON = { personId: 'p-1', method: 'password' as const, userAgent: 'test', address: '203.0.113.9' };
const T0 = Date.UTC(2026, 0, 1, 8);

/**
 * The session rows as the database keeps them (lib/server/auth/session-store.ts), in memory: what these tests
 * are about is the cookie and the rules; the store itself is tested on PGlite and PostgreSQL.
 */
class MemorySessions {
  rows = new Map<string, LoadedSession>();
  disabled = false;
  failing = false;
  async create(row: {
    id: string;
    personId: string;
    createdAt: number;
    expiresAt: number;
    method: 'password' | 'oidc';
  }) {
    const person = {
      id: row.personId,
      email: 'a@b.example',
      name: 'A',
      disabled: false,
      language: null,
      timeZone: null,
      defaultOrganisationId: null,
    };
    this.rows.set(row.id, {
      id: row.id,
      createdAt: row.createdAt,
      lastSeenAt: row.createdAt,
      expiresAt: row.expiresAt,
      revoked: false,
      method: row.method,
      person,
      memberships: [],
    });
  }
  async load(sid: string) {
    if (this.failing)
      throw new AppError('store_unavailable', 'the session store is unavailable; try again shortly', {
        field: 'session',
        retryAfterS: 5,
      });
    const row = this.rows.get(sid);
    return row ? { ...row, person: { ...row.person, disabled: this.disabled } } : null;
  }
  async touch(sid: string, at: number) {
    this.rows.get(sid)!.lastSeenAt = at;
  }
  async revoke(sid: string) {
    const row = this.rows.get(sid);
    if (row) row.revoked = true;
  }
}

/** A request as the browser sends it, with the cookie of the last answer. */
const requestWith = (cookie?: string, headers: Record<string, string> = {}) =>
  new Request('http://app.test/api/session', { headers: cookie ? { cookie, ...headers } : headers });
/** The `name=value` the browser keeps from an answer's Set-Cookie, and the attributes it came with. */
const cookieOf = (cookies: SessionCookies) =>
  cookies.outgoing.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
const valueOf = (setCookie: string | undefined) => setCookie?.split(';')[0];

// A real seal under the current secret (real clock, so it outlives T0), of a session nobody signed in to: broken in
// each way of the report.
const BROKEN = reportedBrokenSeals(
  await sealData({ sid: 'nobody', createdAt: T0 }, { password: sealingPassword(NEW), ttl: 5 }),
);

let sessions: Sessions;
let store: MemorySessions;
/**
 * An instance's sessions with `current` as SESSION_SECRET and `previous` as SESSION_SECRET_PREVIOUS; `keep`: on
 * the same database as the last one made (another instance, or the same one restarted).
 */
const make = (current = NEW, previous: string[] = [], limits = { ttlS: 5, idleS: 2 }, keep = false) => {
  if (!keep) store = new MemorySessions();
  return new Sessions(
    { passwords: sessionPasswordsOf(current, previous), secret: current, ...limits },
    () => store as unknown as SessionStore,
  );
};

/** Signs in; the cookie a browser would hold afterwards. */
async function signIn(previous?: string): Promise<string> {
  const cookies = new SessionCookies(requestWith(previous));
  await sessions.start(cookies, PERSON);
  return valueOf(cookieOf(cookies))!;
}

/** One authenticated request: the session, and the cookie the browser holds after it (never re-sealed). */
async function visit(cookie: string) {
  const cookies = new SessionCookies(requestWith(cookie));
  const session = await sessions.require(cookies);
  expect(cookieOf(cookies)).toBeUndefined();
  return { session, cookie };
}

const refusal = (cookie: string) =>
  visit(cookie).then(
    () => null,
    (e: unknown) => e as AppError,
  );

beforeEach(() => {
  // Only Date: iron-session checks its seals' expiry against Date.now, and so do our lifetime rules.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  sessions = make();
});
afterEach(() => vi.useRealTimers());

describe('sessions (iron-session seals of the server’s session rows: lifetime, idle timeout, revocation, rotation)', () => {
  it('a sign-in seals the session id into an HttpOnly, SameSite=Lax cookie that lives as long as the session', async () => {
    const cookies = new SessionCookies(requestWith());
    await sessions.start(cookies, PERSON);
    const setCookie = cookieOf(cookies)!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; Max-Age=5(;|$)/);
    expect(Date.parse(/; Expires=([^;]+)/.exec(setCookie)![1]!)).toBe(Math.floor((T0 + 5000) / 1000) * 1000);
    expect(setCookie).not.toMatch(/; Secure/);
    const { session } = await visit(valueOf(setCookie)!);
    expect(session).toMatchObject({ createdAt: T0, lastSeenAt: T0, person: { id: 'p-1' } });
    expect(store.rows.get(session.id)).toMatchObject({ createdAt: T0, expiresAt: T0 + 5000, method: 'password' });
  });

  it('is Secure behind a proxy that terminated https', async () => {
    const cookies = new SessionCookies(requestWith(undefined, { 'x-forwarded-proto': 'https' }));
    await sessions.start(cookies, PERSON);
    expect(cookies.outgoing.headers.getSetCookie()).toEqual([
      expect.stringMatching(new RegExp(`^${HOST_COOKIE}=.*; Secure`)),
    ]);
  });

  it('no cookie, or a cookie that does not open, is "not signed in"', async () => {
    const none = await sessions.require(new SessionCookies(requestWith())).catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'not_signed_in', field: 'session', message: 'not signed in' });
    expect(await refusal(`${SESSION_COOKIE}=Fe26.2*forged`)).toMatchObject({ code: 'not_signed_in' });
  });

  it('the idle timeout ends a quiet session, and activity slides it (in the server’s row, not the cookie)', async () => {
    const active = await signIn();
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(800);
      const visited = await visit(active);
      expect(visited.session.lastSeenAt).toBe(Date.now());
      expect(store.rows.get(visited.session.id)!.lastSeenAt).toBe(Date.now());
    }
    const quiet = await signIn();
    vi.advanceTimersByTime(2200);
    expect(await refusal(quiet)).toMatchObject({
      code: 'session_idle',
      message: 'ended after inactivity; sign in again',
    });
  });

  it('the absolute lifetime ends a session however active it is', async () => {
    const cookie = await signIn();
    for (let elapsed = 700; elapsed < 5000; elapsed += 700) {
      vi.setSystemTime(T0 + elapsed);
      await visit(cookie);
    }
    vi.setSystemTime(T0 + 4999);
    expect((await visit(cookie)).session.createdAt).toBe(T0);
    vi.setSystemTime(T0 + 5000);
    expect(await refusal(cookie)).toMatchObject({ code: 'session_expired', message: 'expired; sign in again' });
  });

  it('a disabled person’s session is refused from their next request on, and a row the seal was not written for is none', async () => {
    const cookie = await signIn();
    store.disabled = true;
    expect(await refusal(cookie)).toMatchObject({
      code: 'session_revoked',
      message: 'this account is disabled; ask an administrator of your organisation',
    });
    store.disabled = false;
    const [row] = [...store.rows.values()];
    row!.createdAt += 1;
    expect(await refusal(cookie)).toMatchObject({ code: 'not_signed_in' });
  });

  it('a signed-out cookie is refused even though its seal is still good', async () => {
    const cookie = await signIn();
    const out = new SessionCookies(requestWith(cookie));
    await sessions.end(out);
    const cleared = cookieOf(out)!;
    expect(cleared).toMatch(new RegExp(`^${SESSION_COOKIE}=;`)); // the browser's copy is cleared
    expect(cleared).toMatch(/; Max-Age=0(;|$)/);
    expect(Date.parse(/; Expires=([^;]+)/.exec(cleared)![1]!)).toBeLessThanOrEqual(Date.now());
    expect(await refusal(cookie)).toMatchObject({ code: 'session_revoked', message: 'signed out; sign in again' });
    expect(await sessions.read(cookie.split('=')[1])).toBeNull();
  });

  it('every sign-in makes a new session id and revokes the one this browser held', async () => {
    const first = await signIn();
    const second = await signIn(first);
    const [a, b] = [(await sessions.read(first.split('=')[1]))?.id, (await visit(second)).session.id];
    expect(a).toBeUndefined(); // revoked
    expect(b).toEqual(expect.any(String));
    expect(await refusal(first)).toMatchObject({ code: 'session_revoked' });
  });

  it('rotation: a cookie sealed with the previous secret still opens; without the secret it was sealed with, it does not', async () => {
    sessions = make(OLD);
    const cookie = await signIn();
    sessions = make(NEW, [OLD], undefined, true);
    vi.advanceTimersByTime(1000);
    expect((await visit(cookie)).session.person.id).toBe('p-1');
    // A new sign-in is sealed with the current secret alone.
    const fresh = await signIn();
    sessions = make(NEW, [], undefined, true);
    expect((await visit(fresh)).session.person.id).toBe('p-1');
    expect(await refusal(cookie)).toMatchObject({ code: 'not_signed_in' });
  });

  it('the documented rotation, two instances a step apart: a cookie either seals opens on both at every step', async () => {
    // Each step as SECURITY.md gives it: add the new secret as previous, promote it, drop the old one (once a
    // whole session lifetime has passed since the promotion: a cookie is sealed once, at sign-in).
    const steps: [string, string[]][] = [
      [OLD, []],
      [OLD, [NEW]],
      [NEW, [OLD]],
      [NEW, []],
    ];
    const at = (step: number) => make(steps[step]![0], steps[step]![1], { ttlS: 3600, idleS: 600 }, true);
    for (let i = 1; i < steps.length; i++) {
      // Instance A has taken step i; instance B is still at step i - 1; both share the database.
      const [a, b] = [at(i), at(i - 1)];
      for (const [from, to] of [
        [a, b],
        [b, a],
      ] as const) {
        sessions = from;
        const cookie = await signIn();
        const { session } = await visit(cookie);
        sessions = to;
        expect((await visit(cookie)).session.id).toBe(session.id);
      }
    }
  });

  it('a store that cannot answer refuses the request rather than letting a signed-out session through', async () => {
    const cookie = await signIn();
    store.failing = true;
    expect(await refusal(cookie)).toMatchObject({ code: 'store_unavailable' });
  });

  it.each(BROKEN)(
    'a cookie with %s is no session, and sign-in replaces it and sign-out clears it',
    async (_what, value) => {
      const cookie = `${SESSION_COOKIE}=${value}`;
      expect(await refusal(cookie)).toMatchObject({ code: 'not_signed_in', message: 'not signed in' });
      expect(await sessions.read(value)).toBeNull();
      const replaced = await signIn(cookie);
      expect((await visit(replaced)).session.person.id).toBe('p-1');
      const out = new SessionCookies(requestWith(cookie));
      await sessions.end(out);
      expect(cookieOf(out)).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
      expect(cookieOf(out)).toMatch(/; Max-Age=0(;|$)/);
    },
  );

  it('a real seal with anything added after it is no session: only the canonical seal opens', async () => {
    const cookie = await signIn();
    for (const tail of ['x', '*x', '~2', '.', '0'])
      expect(await refusal(cookie + tail), tail).toMatchObject({ code: 'not_signed_in' });
    expect((await visit(cookie)).session.person.id).toBe('p-1');
  });
});

describe('over https the cookie is __Host-tsb_session, so a sibling subdomain cannot plant one', () => {
  const https = (cookie?: string) => requestWith(cookie, { 'x-forwarded-proto': 'https' });
  const linesOf = (cookies: SessionCookies) => cookies.outgoing.headers.getSetCookie();

  it('sign-in writes __Host-tsb_session: Secure, Path=/, no Domain (behind a TLS proxy, or an https URL)', async () => {
    for (const request of [https(), new Request('https://app.test/api/session')]) {
      const cookies = new SessionCookies(request);
      await sessions.start(cookies, PERSON);
      const [line, ...others] = linesOf(cookies);
      expect(others).toEqual([]);
      expect(line).toMatch(new RegExp(`^${HOST_COOKIE}=Fe26\\.2\\*`));
      expect(line).toMatch(/; Secure(;|$)/);
      expect(line).toMatch(/; Path=\/(;|$)/);
      expect(line).toMatch(/; HttpOnly(;|$)/);
      expect(line).not.toMatch(/domain=/i);
    }
  });

  it('over https only the __Host- cookie is read: the same seal planted as tsb_session is ignored', async () => {
    const cookies = new SessionCookies(https());
    await sessions.start(cookies, PERSON);
    const seal = valueOf(linesOf(cookies)[0])!.split('=')[1]!;
    expect((await sessions.require(new SessionCookies(https(`${HOST_COOKIE}=${seal}`)))).person.id).toBe('p-1');
    const planted = await sessions
      .require(new SessionCookies(https(`${SESSION_COOKIE}=${seal}`)))
      .catch((e: unknown) => e);
    expect(planted).toMatchObject({ code: 'not_signed_in' });
    // And over plain http, where a browser never sends a __Host- cookie, only tsb_session is.
    expect(await refusal(`${HOST_COOKIE}=${seal}`)).toMatchObject({ code: 'not_signed_in' });
    expect((await visit(`${SESSION_COOKIE}=${seal}`)).session.person.id).toBe('p-1');
  });

  it('sign-out over https clears the __Host- cookie, and a tsb_session the browser also sent', async () => {
    const cookies = new SessionCookies(https());
    await sessions.start(cookies, PERSON);
    const held = valueOf(linesOf(cookies)[0])!;
    const out = new SessionCookies(https(`${SESSION_COOKIE}=planted; ${held}`));
    await sessions.end(out);
    const cleared = linesOf(out);
    expect(cleared).toHaveLength(2);
    expect(cleared[0]).toMatch(new RegExp(`^${HOST_COOKIE}=; .*Max-Age=0.*; Secure`));
    expect(cleared[1]).toMatch(new RegExp(`^${SESSION_COOKIE}=; .*Max-Age=0`));
    const again = await sessions.require(new SessionCookies(https(held))).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'session_revoked' });
  });
});
