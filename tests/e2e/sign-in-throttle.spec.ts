import { expect, test } from '@playwright/test';
import { startApp, type AppInstance } from './app-instance';

const PORT = 3533;
const URL_ = `http://127.0.0.1:${PORT}`;
let app: AppInstance;

test.beforeAll(async () => {
  app = await startApp(PORT, { SIGNIN_ATTEMPTS_PER_IP: '6', SIGNIN_FAILURES_PER_CLIENT: '3' });
});
test.afterAll(() => app.stop());

function attempt(clientId: string, clientSecret: string) {
  return fetch(`${URL_}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URL_ },
    body: JSON.stringify({ clientId, clientSecret }),
  });
}

test('failed sign-ins are throttled per client ID, all sign-ins per address: 429 with Retry-After', async () => {
  for (let i = 0; i < 3; i++) expect((await attempt('demo-client', `wrong-${i}`)).status).toBe(401);
  const blocked = await attempt('demo-client', 'demo-secret');
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(200);
  expect((await blocked.json()).detail).toMatch(/^clientId: too many sign-in attempts; try again in \d+ s$/);
  expect(blocked.headers.get('set-cookie')).toBeNull();

  // Another organisation from the same address is not held back by demo-client's failures…
  expect((await attempt('other-client', 'other-secret')).status).toBe(204);
  expect((await attempt('other-client', 'other-secret')).status).toBe(204);
  expect((await attempt('other-client', 'other-secret')).status).toBe(204);
  // …until the address itself has tried too often.
  const byAddress = await attempt('other-client', 'other-secret');
  expect(byAddress.status).toBe(429);
  expect(Number(byAddress.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(byAddress.headers.get('retry-after'))).toBeLessThanOrEqual(60);
});
