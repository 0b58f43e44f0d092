import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect, test } from '@playwright/test';
import { startApp, type AppInstance } from './app-instance';
import { PEOPLE } from './support';

// A: no proxy in front (TRUSTED_PROXY_HOPS=0), B: behind one trusted proxy. Small limits of their own: 6 attempts
// a minute and 5 failures a day per address, 3 failures in a row per e-mail and address.
const A = 3533;
const B = 3811;
const LIMITS = { SIGNIN_ATTEMPTS_PER_IP: '6', SIGNIN_FAILURES_PER_IP: '5', SIGNIN_FAILURES_PER_ACCOUNT: '3' };
type Credentials = { email: string; password: string };
const person = ({ email, password }: Credentials) => ({ email, password });
const DEMO = person(PEOPLE.demo.editor);
const OTHER = person(PEOPLE.other.editor);
let apps: AppInstance[] = [];

test.beforeAll(async () => {
  apps = await Promise.all([
    startApp(A, { ...LIMITS, TRUSTED_PROXY_HOPS: '0' }),
    startApp(B, { ...LIMITS, TRUSTED_PROXY_HOPS: '1' }),
  ]);
});
test.afterAll(() => Promise.all(apps.map((app) => app.stop())));

type Answer = { status: number; headers: IncomingHttpHeaders; detail?: string; ms: number };

/**
 * A sign-in over a socket from `from` (Linux routes all of 127/8 to loopback, so each test client has an
 * address of its own), with whatever X-Forwarded-For the client chooses to send.
 */
function signIn(port: number, from: string, credentials: Credentials, forwardedFor?: string): Promise<Answer> {
  const body = JSON.stringify(credentials);
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, localAddress: from, method: 'POST', path: '/api/session', headers, agent: false },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            detail: text ? JSON.parse(text).detail : undefined,
            ms: Date.now() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('the address is the socket’s: X-Forwarded-For chosen by the client spreads nothing (TRUSTED_PROXY_HOPS=0)', async () => {
  for (let i = 1; i <= 6; i++) expect((await signIn(A, '127.0.0.2', OTHER, `203.0.113.${i}`)).status).toBe(204);
  const refused = await signIn(A, '127.0.0.2', OTHER, '203.0.113.99');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(refused.detail).toMatch(/^too many sign-in attempts from this address; try again in \d+ s$/);
  expect((await signIn(A, '127.0.0.3', OTHER)).status).toBe(204);
});

test('failures for one person from one address: refused there for an hour (Retry-After), right password included; not elsewhere, not for colleagues', async () => {
  const answers = [];
  for (let i = 1; i <= 3; i++)
    answers.push(await signIn(A, '127.0.0.4', { ...DEMO, password: `wrong password ${i}` }, `198.51.100.${i}`));
  expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
  const blocked = await signIn(A, '127.0.0.4', DEMO, '198.51.100.50');
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3500);
  expect(blocked.detail).toBe('email: too many failed sign-ins for this e-mail address from here; try again in 60 min');
  expect(blocked.headers['set-cookie']).toBeUndefined();
  // A colleague at the same address signs in; the same person from their own address too.
  expect((await signIn(A, '127.0.0.4', person(PEOPLE.demo.viewer))).status).toBe(204);
  const elsewhere = await signIn(A, '127.0.0.5', DEMO);
  expect(elsewhere.status).toBe(204);
  expect(elsewhere.headers['set-cookie']?.[0]).toMatch(/^tsb_session=/);
});

test('the right password is never refused because of failures from other addresses (a flood for one person from 40 addresses)', async () => {
  for (let i = 1; i <= 40; i++)
    expect([401, 429]).toContain(
      (await signIn(A, `127.0.1.${(i % 10) + 1}`, { ...DEMO, password: `guess number ${i}` })).status,
    );
  expect((await signIn(A, '127.0.1.51', DEMO)).status).toBe(204);
});

test('an address that fails for everyone, whoever it tries, waits for the rest of the day', async () => {
  for (let i = 1; i <= 5; i++)
    expect(
      (await signIn(A, '127.0.2.1', { email: `nobody${i}@demo.example`, password: 'not a password' })).status,
    ).toBe(401);
  const refused = await signIn(A, '127.0.2.1', DEMO);
  expect([refused.status, refused.detail]).toEqual([
    429,
    'too many failed sign-ins from this address today; try again in 24 h',
  ]);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(86_000);
});

test('behind one trusted proxy (TRUSTED_PROXY_HOPS=1) the entry it appended is the client, whatever the client wrote before it', async () => {
  // 127.0.0.6 plays the proxy: it appends the address it received each request from.
  for (let i = 1; i <= 6; i++)
    expect((await signIn(B, '127.0.0.6', OTHER, `10.0.0.${i}, 198.51.100.7`)).status).toBe(204);
  expect((await signIn(B, '127.0.0.6', OTHER, '198.51.100.7')).status).toBe(429);
  expect((await signIn(B, '127.0.0.6', OTHER, '198.51.100.7, 198.51.100.8')).status).toBe(204);
  // Without the header the request did not come through the proxy: the socket's address counts.
  expect((await signIn(B, '127.0.0.6', OTHER)).status).toBe(204);
});
