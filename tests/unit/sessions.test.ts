import { sealData } from 'iron-session';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/server/app-error';
import { MemoryRevocationStore } from '@/lib/server/revocations';
import { sealingPassword, sessionPasswordsOf } from '@/lib/server/auth/session-keys';
import { SessionCookies, Sessions } from '@/lib/server/session';
import { SESSION_COOKIE } from '@/lib/server/session-rules';
import { reportedBrokenSeals } from '../helpers/broken-seals';

const HOST_COOKIE = `__Host-${SESSION_COOKIE}`;
const OLD = 'previous-session-secret-0123456789-abcdef';
const NEW = 'current-session-secret-0123456789-abcdefgh';
const CREDENTIALS = { clientId: 'demo-client', clientSecret: 'demo-secret' };
const T0 = Date.UTC(2026, 0, 1, 8);

/** A request as the browser sends it, with the cookie of the last answer. */
const requestWith = (cookie?: string, headers: Record<string, string> = {}) =>
  new Request('http://app.test/api/session', { headers: cookie ? { cookie, ...headers } : headers });
/** The `name=value` the browser keeps from an answer's Set-Cookie, and the attributes it came with. */
const cookieOf = (cookies: SessionCookies) => cookies.outgoing.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
const valueOf = (setCookie: string | undefined) => setCookie?.split(';')[0];

// A real seal under the current secret (real clock, so it outlives T0), of a session nobody signed in to: broken in
// each way of the report.
const BROKEN = reportedBrokenSeals(
  await sealData({ sid: 'nobody', ...CREDENTIALS, createdAt: T0, lastSeenAt: T0 }, { password: sealingPassword(NEW), ttl: 5 }),
);

let sessions: Sessions;
let revocations: MemoryRevocationStore;
/** An instance's sessions with `current` as SESSION_SECRET and `previous` as SESSION_SECRET_PREVIOUS. */
const make = (current = NEW, previous: string[] = [], limits = { ttlS: 5, idleS: 2 }) =>
  new Sessions({ passwords: sessionPasswordsOf(current, previous), secret: current, ...limits }, (revocations = new MemoryRevocationStore()));

/** Signs in; the cookie a browser would hold afterwards. */
async function signIn(previous?: string): Promise<string> {
  const cookies = new SessionCookies(requestWith(previous));
  await sessions.start(cookies, CREDENTIALS);
  return valueOf(cookieOf(cookies))!;
}

/** One authenticated request: the session, and the cookie the browser holds after it (re-sealed or not). */
async function visit(cookie: string) {
  const cookies = new SessionCookies(requestWith(cookie));
  const session = await sessions.require(cookies);
  return { session, cookie: valueOf(cookieOf(cookies)) ?? cookie };
}

const refusal = (cookie: string) => visit(cookie).then(() => null, (e: unknown) => e as AppError);

beforeEach(() => {
  // Only Date: iron-session checks its seals' expiry against Date.now, and so do our lifetime rules.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  sessions = make();
});
afterEach(() => vi.useRealTimers());

describe('sessions (iron-session seals, lifetime, idle timeout, revocation, rotation)', () => {
  it('a sign-in seals the credentials into an HttpOnly, SameSite=Lax cookie that lives as long as the session', async () => {
    const cookies = new SessionCookies(requestWith());
    await sessions.start(cookies, CREDENTIALS);
    const setCookie = cookieOf(cookies)!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; Max-Age=5(;|$)/);
    expect(Date.parse(/; Expires=([^;]+)/.exec(setCookie)![1]!)).toBe(Math.floor((T0 + 5000) / 1000) * 1000);
    expect(setCookie).not.toMatch(/; Secure/);
    expect(setCookie).not.toContain('demo-secret');
    const { session } = await visit(valueOf(setCookie)!);
    expect(session).toMatchObject({ ...CREDENTIALS, createdAt: T0, lastSeenAt: T0 });
  });

  it('is Secure behind a proxy that terminated https', async () => {
    const cookies = new SessionCookies(requestWith(undefined, { 'x-forwarded-proto': 'https' }));
    await sessions.start(cookies, CREDENTIALS);
    expect(cookies.outgoing.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^${HOST_COOKIE}=.*; Secure`))]);
  });

  it('no cookie, or a cookie that does not open, is "not signed in"', async () => {
    const none = await sessions.require(new SessionCookies(requestWith())).catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'not_signed_in', field: 'session', message: 'not signed in' });
    expect(await refusal(`${SESSION_COOKIE}=Fe26.2*forged`)).toMatchObject({ code: 'not_signed_in' });
  });

  it('the idle timeout ends a quiet session, and activity slides it', async () => {
    let active = await signIn();
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(800);
      const visited = await visit(active);
      expect(visited.session.lastSeenAt).toBe(Date.now());
      expect(visited.cookie).not.toBe(active); // re-sealed with the new lastSeenAt
      active = visited.cookie;
    }
    const quiet = await signIn();
    vi.advanceTimersByTime(2200);
    expect(await refusal(quiet)).toMatchObject({ code: 'session_idle', message: 'ended after inactivity; sign in again' });
  });

  it('the absolute lifetime ends a session however active it is; a re-sealed cookie keeps only the time left', async () => {
    let cookie = await signIn();
    for (let elapsed = 700; elapsed < 5000; elapsed += 700) {
      vi.setSystemTime(T0 + elapsed);
      const cookies = new SessionCookies(requestWith(cookie));
      await sessions.require(cookies);
      const setCookie = cookieOf(cookies)!;
      expect(Number(/Max-Age=(\d+)/.exec(setCookie)![1])).toBe(Math.floor((5000 - elapsed) / 1000) || 1);
      cookie = valueOf(setCookie)!;
    }
    vi.setSystemTime(T0 + 4999);
    expect((await visit(cookie)).session.createdAt).toBe(T0);
    vi.setSystemTime(T0 + 5000);
    expect(await refusal(cookie)).toMatchObject({ code: 'session_expired', message: 'expired; sign in again' });
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
    const [a, b] = [(await sessions.read(first.split('=')[1]))?.sid, (await visit(second)).session.sid];
    expect(a).toBeUndefined(); // revoked
    expect(b).toEqual(expect.any(String));
    expect(await refusal(first)).toMatchObject({ code: 'session_revoked' });
  });

  it('rotation: a cookie sealed with the previous secret still opens, and is re-sealed with the current one', async () => {
    const old = await sealData({ sid: 'rotated', ...CREDENTIALS, createdAt: T0, lastSeenAt: T0 }, { password: sealingPassword(OLD), ttl: 5 });
    sessions = make(NEW, [OLD]);
    vi.advanceTimersByTime(1000);
    const { session, cookie } = await visit(`${SESSION_COOKIE}=${old}`);
    expect(session.sid).toBe('rotated');
    expect(cookie).not.toBe(`${SESSION_COOKIE}=${old}`);
    // Only the current secret is needed for the re-sealed cookie; the old one alone no longer opens it.
    sessions = make(NEW);
    expect((await visit(cookie)).session.sid).toBe('rotated');
    sessions = make(OLD);
    expect(await refusal(cookie)).toMatchObject({ code: 'not_signed_in' });
  });

  it('the documented rotation, two instances a step apart: every cookie opens on both at every step', async () => {
    // Each step as SECURITY.md gives it: add the new secret as previous, promote it, drop the old one.
    const steps: [string, string[]][] = [[OLD, []], [OLD, [NEW]], [NEW, [OLD]], [NEW, []]];
    const at = (step: number) => make(steps[step]![0], steps[step]![1], { ttlS: 3600, idleS: 600 });
    sessions = at(0);
    let cookie = await signIn();
    for (let i = 1; i < steps.length; i++) {
      // Every instance at step i - 1 (before the last step, for a whole session lifetime: no cookie sealed with
      // the old secret is left), and a cookie sealed there.
      sessions = at(i - 1);
      vi.advanceTimersByTime(61_000);
      cookie = (await visit(cookie)).cookie;
      // Instance A has taken step i; instance B is still at step i - 1.
      const [a, b] = [at(i), at(i - 1)];
      for (const [from, to] of [[a, b], [b, a]] as const) {
        sessions = from;
        vi.advanceTimersByTime(61_000); // past the touch interval: the cookie is sealed again by `from`
        const visited = await visit(cookie);
        expect(visited.session.sid).toEqual(expect.any(String));
        cookie = visited.cookie;
        sessions = to;
        expect((await visit(cookie)).session.sid).toBe(visited.session.sid);
      }
    }
  });

  it('a store that cannot answer refuses the request rather than letting a signed-out session through', async () => {
    const cookie = await signIn();
    revocations.isRevoked = () => Promise.reject(new AppError('store_unavailable', 'the session store is unavailable', { field: 'session', retryAfterS: 5 }));
    expect(await refusal(cookie)).toMatchObject({ code: 'store_unavailable' });
  });

  it.each(BROKEN)('a cookie with %s is no session, and sign-in replaces it and sign-out clears it', async (_what, value) => {
    const cookie = `${SESSION_COOKIE}=${value}`;
    expect(await refusal(cookie)).toMatchObject({ code: 'not_signed_in', message: 'not signed in' });
    expect(await sessions.read(value)).toBeNull();
    const replaced = await signIn(cookie);
    expect((await visit(replaced)).session).toMatchObject(CREDENTIALS);
    const out = new SessionCookies(requestWith(cookie));
    await sessions.end(out);
    expect(cookieOf(out)).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(cookieOf(out)).toMatch(/; Max-Age=0(;|$)/);
  });

  it('a real seal with anything added after it is no session: only the canonical seal opens', async () => {
    const cookie = await signIn();
    for (const tail of ['x', '*x', '~2', '.', '0']) expect(await refusal(cookie + tail), tail).toMatchObject({ code: 'not_signed_in' });
    expect((await visit(cookie)).session).toMatchObject(CREDENTIALS);
  });
});

describe('over https the cookie is __Host-tsb_session, so a sibling subdomain cannot plant one', () => {
  const https = (cookie?: string) => requestWith(cookie, { 'x-forwarded-proto': 'https' });
  const linesOf = (cookies: SessionCookies) => cookies.outgoing.headers.getSetCookie();

  it('sign-in writes __Host-tsb_session: Secure, Path=/, no Domain (behind a TLS proxy, or an https URL)', async () => {
    for (const request of [https(), new Request('https://app.test/api/session')]) {
      const cookies = new SessionCookies(request);
      await sessions.start(cookies, CREDENTIALS);
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
    await sessions.start(cookies, CREDENTIALS);
    const seal = valueOf(linesOf(cookies)[0])!.split('=')[1]!;
    expect((await sessions.require(new SessionCookies(https(`${HOST_COOKIE}=${seal}`)))).clientId).toBe(CREDENTIALS.clientId);
    const planted = await sessions.require(new SessionCookies(https(`${SESSION_COOKIE}=${seal}`))).catch((e: unknown) => e);
    expect(planted).toMatchObject({ code: 'not_signed_in' });
    // And over plain http, where a browser never sends a __Host- cookie, only tsb_session is.
    expect(await refusal(`${HOST_COOKIE}=${seal}`)).toMatchObject({ code: 'not_signed_in' });
    expect((await visit(`${SESSION_COOKIE}=${seal}`)).session.clientId).toBe(CREDENTIALS.clientId);
  });

  it('a re-sealed cookie keeps the __Host- name', async () => {
    const cookies = new SessionCookies(https());
    await sessions.start(cookies, CREDENTIALS);
    vi.advanceTimersByTime(800);
    const touched = new SessionCookies(https(valueOf(linesOf(cookies)[0])));
    await sessions.require(touched);
    expect(linesOf(touched)).toEqual([expect.stringMatching(new RegExp(`^${HOST_COOKIE}=Fe26\\.2\\*.*; Secure`))]);
  });

  it('sign-out over https clears the __Host- cookie, and a tsb_session the browser also sent', async () => {
    const cookies = new SessionCookies(https());
    await sessions.start(cookies, CREDENTIALS);
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
