import { expect, test } from '@playwright/test';
import { reportedBrokenSeals } from '../helpers/broken-seals';
import { APP_URL, DEMO, api, sandbox, signIn, signInRedirectOf } from './support';

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test.describe('POST /api/session', () => {
  test('good credentials: 204 and a sealed HttpOnly, SameSite=Lax cookie with a max age', async () => {
    const response = await api('/api/session', { method: 'POST', json: DEMO, headers: { origin: APP_URL } });
    expect(response.status).toBe(204);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^tsb_session=Fe26\.2\*/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=lax/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=\d+/);
    expect(cookie).not.toMatch(/; Secure/i); // plain http demo still works
    expect(cookie).not.toContain(DEMO.clientSecret);
    const me = await api('/api/session', { cookie: cookie.split(';')[0] });
    expect(await me.json()).toEqual({ clientId: 'demo-client' });
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

  test('wrong credentials: 401 naming the field, no cookie', async () => {
    const response = await api('/api/session', { method: 'POST', json: { ...DEMO, clientSecret: 'wrong' } });
    expect(response.status).toBe(401);
    expect((await response.json()).detail).toMatch(/^clientSecret: /);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  for (const [name, json, field] of [
    ['missing clientSecret', { clientId: 'demo-client' }, 'clientSecret'],
    ['empty clientId', { clientId: '', clientSecret: 'x' }, 'clientId'],
    ['a number for clientId', { clientId: 42, clientSecret: 'x' }, 'clientId'],
    ['an unknown field', { ...DEMO, admin: true }, 'admin'],
    ['not JSON', '{"clientId":', 'body'],
    ['a JSON array', '[]', 'body'],
  ] as const) {
    test(`422 naming the field for ${name}`, async () => {
      const response = await api('/api/session', { method: 'POST', json });
      expect(response.status).toBe(422);
      expect((await response.json()).detail).toMatch(new RegExp(`^${field}: `));
    });
  }

  test('a body over the limit is refused with 413', async () => {
    const response = await api('/api/session', { method: 'POST', json: { clientId: 'x'.repeat(20_000), clientSecret: 'y' } });
    expect(response.status).toBe(413);
    expect((await response.json()).detail).toMatch(/^body: /);
  });

  test('special-character credentials sign in', async () => {
    const cookie = await signIn({ clientId: 'spécial+client/=&%', clientSecret: 's3cr=t+/&% é☃?#' });
    const me = await api('/api/session', { cookie });
    expect(await me.json()).toEqual({ clientId: 'spécial+client/=&%' });
  });

  test('a foreign origin is refused with 403 (Origin, then Sec-Fetch-Site)', async () => {
    const byOrigin = await api('/api/session', { method: 'POST', json: DEMO, headers: { origin: 'http://evil.example' } });
    expect(byOrigin.status).toBe(403);
    expect((await byOrigin.json()).detail).toMatch(/^origin: /);
    const bySite = await api('/api/session', { method: 'POST', json: DEMO, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(bySite.status).toBe(403);
    const cookie = await signIn();
    const signOut = await api('/api/session', { method: 'DELETE', cookie, headers: { origin: 'http://evil.example' } });
    expect(signOut.status).toBe(403);
    expect((await api('/api/session', { cookie })).status).toBe(200);
  });

  test('503 with Retry-After when the service is down', async () => {
    await sandbox('POST', '/_sandbox/faults', { outage: true });
    const response = await api('/api/session', { method: 'POST', json: DEMO });
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await response.json()).detail).toMatch(/unavailable/i);
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
        expect([response.status, (await response.json()).detail], `${what}: ${path}`).toEqual([401, 'session: not signed in']);
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
    expect(await signInRedirectOf(await api('/batches', { cookie: `tsb_session=${seal}`, headers: https }))).toBe('/sign-in?next=%2Fbatches');
    const out = await api('/api/session', { method: 'DELETE', cookie: `tsb_session=x; __Host-tsb_session=${seal}`, headers: HTTPS });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().map((c) => c.split(';')[0])).toEqual(['__Host-tsb_session=', 'tsb_session=']);
    expect((await api('/api/session', { cookie: `__Host-tsb_session=${seal}`, headers: https })).status).toBe(401);
  });
});

