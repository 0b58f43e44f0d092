import { expect, test } from '@playwright/test';
import { reportedBrokenSeals } from '../helpers/broken-seals';
import {
  APP_URL,
  DEMO as DEMO_PERSON,
  DEMO_ADMIN,
  PEOPLE,
  SPECIAL,
  api,
  sandbox,
  signIn,
  signInRedirectOf,
} from './support';

/** What a sign-in posts: the demo editor's e-mail and password. */
const DEMO = { email: DEMO_PERSON.email, password: DEMO_PERSON.password };

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test.describe('POST /api/session', () => {
  test('the right password: 204 and a sealed HttpOnly, SameSite=Lax cookie with a max age; who, the organisation and the role', async () => {
    const response = await api('/api/session', { method: 'POST', json: DEMO, headers: { origin: APP_URL } });
    expect(response.status).toBe(204);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^tsb_session=Fe26\.2\*/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=lax/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=\d+/);
    expect(cookie).not.toMatch(/; Secure/i); // plain http demo still works
    expect(cookie).not.toContain(DEMO.password);
    const me = await api('/api/session', { cookie: cookie.split(';')[0] });
    const organisation = { id: expect.any(String), slug: 'demo', name: 'Greenfield Seeds (demo)' };
    expect(await me.json()).toEqual({
      user: { email: DEMO.email, name: DEMO_PERSON.name },
      organisation,
      role: 'editor',
      organisations: [{ ...organisation, role: 'editor' }],
    });
  });

  test('the e-mail address is matched whatever its case', async () => {
    const response = await api('/api/session', {
      method: 'POST',
      json: { ...DEMO, email: DEMO.email.toUpperCase() },
      headers: { origin: APP_URL },
    });
    expect(response.status).toBe(204);
  });

  test('Secure when served over https (behind a TLS proxy)', async () => {
    const response = await api('/api/session', {
      method: 'POST',
      json: DEMO,
      headers: { 'x-forwarded-proto': 'https', origin: APP_URL.replace('http:', 'https:') },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/; Secure/i);
  });

  test('a wrong password and an unknown e-mail: the same 401, no cookie, in about the same time', async () => {
    const timed = async (json: unknown) => {
      const started = performance.now();
      const response = await api('/api/session', { method: 'POST', json });
      return {
        status: response.status,
        detail: (await response.json()).detail,
        cookie: response.headers.get('set-cookie'),
        ms: performance.now() - started,
      };
    };
    // Warmed once each, then the median of a few: the time of a password check, not of a cold start.
    const times = { wrong: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 5; i++) {
      const wrong = await timed({ ...DEMO, password: `not the password ${i}` });
      const unknown = await timed({ email: `nobody${i}@demo.example`, password: 'not the password' });
      for (const answer of [wrong, unknown])
        expect([answer.status, answer.detail, answer.cookie]).toEqual([
          401,
          'email: the e-mail or password is not right',
          null,
        ]);
      if (i > 0) {
        times.wrong.push(wrong.ms);
        times.unknown.push(unknown.ms);
      }
    }
    const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    // Both check a password hash (an unknown address a dummy one): neither answers in a fraction of the other's time.
    expect(median(times.unknown)).toBeGreaterThan(median(times.wrong) / 3);
    expect(median(times.wrong)).toBeGreaterThan(median(times.unknown) / 3);
  });

  test('the organisation’s client ID and secret no longer sign anyone in', async () => {
    const response = await api('/api/session', {
      method: 'POST',
      json: { clientId: 'demo-client', clientSecret: 'demo-secret' },
      headers: { origin: APP_URL },
    });
    expect([response.status, (await response.json()).detail]).toEqual([
      422,
      'email: the e-mail address is missing or not text; enter your e-mail address',
    ]);
  });

  for (const [name, json, field] of [
    ['missing password', { email: DEMO.email }, 'password'],
    ['empty email', { email: '', password: 'x' }, 'email'],
    ['a number for email', { email: 42, password: 'x' }, 'email'],
    ['an unknown field', { ...DEMO, admin: true }, 'admin'],
    ['not JSON', '{"email":', 'body'],
    ['a JSON array', '[]', 'body'],
  ] as const) {
    test(`422 naming the field for ${name}`, async () => {
      const response = await api('/api/session', { method: 'POST', json });
      expect(response.status).toBe(422);
      expect((await response.json()).detail).toMatch(new RegExp(`^${field}: `));
    });
  }

  test('a body over the limit is refused with 413', async () => {
    const response = await api('/api/session', { method: 'POST', json: { email: 'x'.repeat(20_000), password: 'y' } });
    expect(response.status).toBe(413);
    expect((await response.json()).detail).toMatch(/^body: /);
  });

  test('a person of the organisation whose client credentials hold every character URL encoding gets wrong signs in, and its batches load', async () => {
    const cookie = await signIn(SPECIAL);
    const me = await api('/api/session', { cookie });
    expect(await me.json()).toMatchObject({ organisation: { slug: 'special', name: 'Spécial & Co' }, role: 'editor' });
    expect((await api('/api/batches', { cookie })).status).toBe(200);
  });

  test('a member of several organisations: org= chooses among them, another organisation is 403, never its data', async () => {
    const cookie = await signIn(DEMO_ADMIN);
    const drift = await api('/api/session?org=drift', { cookie });
    expect([drift.status, (await drift.json()).detail]).toEqual([
      403,
      'org: you are not a member of this organisation',
    ]);
    expect((await api('/api/batches?org=drift', { cookie })).status).toBe(403);
    expect((await api('/api/settings/targets?org=drift', { cookie })).status).toBe(403);
    const bad = await api('/api/session?org=Not%20a%20slug', { cookie });
    expect([bad.status, (await bad.json()).detail]).toEqual([
      422,
      'org: must be an organisation slug (lower-case letters, digits and dashes)',
    ]);
    const twice = await api('/api/session?org=demo&org=demo', { cookie });
    expect([twice.status, (await twice.json()).detail]).toEqual([422, 'org: given more than once']);
    expect(await (await api('/api/session?org=demo', { cookie })).json()).toMatchObject({
      organisation: { slug: 'demo' },
      role: 'admin',
    });
    // org= is no query parameter of the route's own: it never makes an unknown-parameter 422.
    expect((await api('/api/batches?org=demo&start_date=2026-01-01T00:00:00Z', { cookie })).status).toBe(200);
    expect(PEOPLE.drift.admin.org).toBe('drift');
  });

  test('a foreign origin is refused with 403 (Origin, then Sec-Fetch-Site)', async () => {
    const byOrigin = await api('/api/session', {
      method: 'POST',
      json: DEMO,
      headers: { origin: 'http://evil.example' },
    });
    expect(byOrigin.status).toBe(403);
    expect((await byOrigin.json()).detail).toMatch(/^origin: /);
    const bySite = await api('/api/session', {
      method: 'POST',
      json: DEMO,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(bySite.status).toBe(403);
    const cookie = await signIn();
    const signOut = await api('/api/session', { method: 'DELETE', cookie, headers: { origin: 'http://evil.example' } });
    expect(signOut.status).toBe(403);
    expect((await api('/api/session', { cookie })).status).toBe(200);
  });

  test('signing in needs nothing of the service: people sign in during its outage, and are told about the outage by the pages that need it', async () => {
    await sandbox('POST', '/_sandbox/faults', { outage: true });
    const response = await api('/api/session', { method: 'POST', json: DEMO, headers: { origin: APP_URL } });
    expect(response.status).toBe(204);
    const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    const batches = await api('/api/batches', { cookie });
    expect(batches.status).toBe(503);
    expect(Number(batches.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

test.describe('session lifecycle', () => {
  test('GET without a session, with a tampered cookie or garbage: 401 with detail', async () => {
    expect((await api('/api/session')).status).toBe(401);
    const cookie = await signIn();
    // One character of the seal's HMAC replaced by another (it used to be "replaced" by itself 1 time in 64).
    const at = cookie.length - 6;
    const tampered = cookie.slice(0, at) + (cookie[at] === 'A' ? 'B' : 'A') + cookie.slice(at + 1);
    expect(tampered).not.toBe(cookie);
    for (const c of [tampered, 'tsb_session=garbage']) {
      const response = await api('/api/session', { cookie: c });
      expect(response.status).toBe(401);
      expect((await response.json()).detail).toMatch(/^session: /);
    }
  });

  test('a new session on every sign-in; the one it replaces stops working', async () => {
    const first = await signIn();
    const second = await api('/api/session', { method: 'POST', json: DEMO, cookie: first });
    const secondCookie = second.headers.get('set-cookie')!.split(';')[0]!;
    expect(secondCookie).not.toBe(first);
    expect((await api('/api/session', { cookie: secondCookie })).status).toBe(200);
    expect((await api('/api/session', { cookie: first })).status).toBe(401);
  });

  test('sign-out clears the cookie and revokes the session even for a kept copy', async () => {
    const cookie = await signIn();
    const out = await api('/api/session', { method: 'DELETE', cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/tsb_session=;.*Max-Age=0/i);
    const me = await api('/api/session', { cookie });
    expect(me.status).toBe(401);
    expect((await me.json()).detail).toBe('session: signed out; sign in again');
    expect((await api('/api/batches', { cookie })).status).toBe(401);
  });
});

test.describe('session cookies that cannot be opened', () => {
  test('each cookie of the report is no session: 401 on APIs, sign-in for the page; sign-in replaces it, sign-out clears it', async () => {
    const seal = (await signIn()).split('=')[1]!;
    for (const [what, value] of reportedBrokenSeals(seal)) {
      const cookie = `tsb_session=${value}`;
      for (const path of ['/api/session', '/api/batches', '/api/batches/stream', '/api/batches/export']) {
        const response = await api(path, { cookie });
        expect([response.status, (await response.json()).detail], `${what}: ${path}`).toEqual([
          401,
          'session: not signed in',
        ]);
      }
      expect(await signInRedirectOf(await api('/batches', { cookie })), what).toBe('/sign-in?next=%2Fbatches');
      const signedIn = await api('/api/session', { method: 'POST', json: DEMO, cookie, headers: { origin: APP_URL } });
      expect(signedIn.status, what).toBe(204);
      const replaced = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      expect((await api('/api/session', { cookie: replaced })).status, what).toBe(200);
      const out = await api('/api/session', { method: 'DELETE', cookie, headers: { origin: APP_URL } });
      expect(out.status, what).toBe(204);
      expect(out.headers.get('set-cookie'), what).toMatch(/^tsb_session=;.*Max-Age=0/i);
    }
  });
});

test.describe('over https (behind a TLS proxy) the cookie is __Host-tsb_session', () => {
  const HTTPS = { 'x-forwarded-proto': 'https', origin: APP_URL.replace('http:', 'https:') };

  test('sign-in sets __Host-tsb_session (Secure, Path=/, no Domain); only that name is read, for APIs and pages', async () => {
    const response = await api('/api/session', { method: 'POST', json: DEMO, headers: HTTPS });
    expect(response.status).toBe(204);
    const line = response.headers.get('set-cookie')!;
    expect(line).toMatch(/^__Host-tsb_session=Fe26\.2\*/);
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).not.toMatch(/domain=/i);
    const seal = line.split(';')[0]!.split('=')[1]!;
    const https = { 'x-forwarded-proto': 'https' };
    expect((await api('/api/session', { cookie: `__Host-tsb_session=${seal}`, headers: https })).status).toBe(200);
    expect((await api('/batches', { cookie: `__Host-tsb_session=${seal}`, headers: https })).status).toBe(200);
    // A sibling subdomain can plant tsb_session (with a Domain), never __Host-tsb_session: over https it is ignored.
    const planted = await api('/api/session', { cookie: `tsb_session=${seal}`, headers: https });
    expect([planted.status, (await planted.json()).detail]).toEqual([401, 'session: not signed in']);
    expect(await signInRedirectOf(await api('/batches', { cookie: `tsb_session=${seal}`, headers: https }))).toBe(
      '/sign-in?next=%2Fbatches',
    );
    const out = await api('/api/session', {
      method: 'DELETE',
      cookie: `tsb_session=x; __Host-tsb_session=${seal}`,
      headers: HTTPS,
    });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().map((c) => c.split(';')[0])).toEqual(['__Host-tsb_session=', 'tsb_session=']);
    expect((await api('/api/session', { cookie: `__Host-tsb_session=${seal}`, headers: https })).status).toBe(401);
  });
});
