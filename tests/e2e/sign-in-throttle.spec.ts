import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect, test } from '@playwright/test';
import { startApp, type AppInstance } from './app-instance';

// A: no proxy in front (TRUSTED_PROXY_HOPS=0), B: behind one trusted proxy. Small limits of their own.
const A = 3533;
const B = 3811;
const LIMITS = { SIGNIN_ATTEMPTS_PER_IP: '6', SIGNIN_FAILURES_PER_IP: '3', SIGNIN_AUTH_CALLS_PER_CLIENT: '20' };
const DEMO = { clientId: 'demo-client', clientSecret: 'demo-secret' };
const OTHER = { clientId: 'other-client', clientSecret: 'other-secret' };
let apps: AppInstance[] = [];

test.beforeAll(async () => {
  apps = await Promise.all([startApp(A, { ...LIMITS, TRUSTED_PROXY_HOPS: '0' }), startApp(B, { ...LIMITS, TRUSTED_PROXY_HOPS: '1' })]);
});
test.afterAll(() => Promise.all(apps.map((app) => app.stop())));

type Answer = { status: number; headers: IncomingHttpHeaders; detail?: string; ms: number };

/**
 * A sign-in over a socket from `from` (Linux routes all of 127/8 to loopback, so each test client has an
 * address of its own), with whatever X-Forwarded-For the client chooses to send.
 */
function signIn(port: number, from: string, credentials: { clientId: string; clientSecret: string }, forwardedFor?: string): Promise<Answer> {
  const body = JSON.stringify(credentials);
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, localAddress: from, method: 'POST', path: '/api/session', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, detail: text ? JSON.parse(text).detail : undefined, ms: Date.now() - started }));
    });
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

test('one address is slowed, then refused with Retry-After, right secret included; other addresses are not held back', async () => {
  // Before this, the right secret was refused from every address once a client ID had too many failures.
  const answers = [];
  for (let i = 1; i <= 3; i++) answers.push(await signIn(A, '127.0.0.4', { ...DEMO, clientSecret: `wrong-${i}` }, `198.51.100.${i}`));
  expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
  expect(answers[2]!.ms).toBeGreaterThanOrEqual(450); // the second half of the failure allowance waits
  const blocked = await signIn(A, '127.0.0.4', DEMO, '198.51.100.50');
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
  expect(blocked.detail).toMatch(/^too many failed sign-ins from this address; try again in \d+ s$/);
  expect(blocked.headers['set-cookie']).toBeUndefined();
  const elsewhere = await signIn(A, '127.0.0.5', DEMO);
  expect(elsewhere.status).toBe(204);
  expect(elsewhere.headers['set-cookie']?.[0]).toMatch(/^tsb_session=/);
});

test('correct credentials are never refused because of failures from other addresses (50 addresses, one client ID)', async () => {
  for (let i = 1; i <= 50; i++) expect((await signIn(A, `127.0.1.${i}`, { ...DEMO, clientSecret: `guess-${i}` })).status).toBe(401);
  expect((await signIn(A, '127.0.1.51', DEMO)).status).toBe(204);
});

test('behind one trusted proxy (TRUSTED_PROXY_HOPS=1) the entry it appended is the client, whatever the client wrote before it', async () => {
  // 127.0.0.6 plays the proxy: it appends the address it received each request from.
  for (let i = 1; i <= 6; i++) expect((await signIn(B, '127.0.0.6', OTHER, `10.0.0.${i}, 198.51.100.7`)).status).toBe(204);
  expect((await signIn(B, '127.0.0.6', OTHER, '198.51.100.7')).status).toBe(429);
  expect((await signIn(B, '127.0.0.6', OTHER, '198.51.100.7, 198.51.100.8')).status).toBe(204);
  // Without the header the request did not come through the proxy: the socket's address counts.
  expect((await signIn(B, '127.0.0.6', OTHER)).status).toBe(204);
});
