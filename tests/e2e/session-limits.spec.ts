import { expect, test } from '@playwright/test';
import { startApp, type AppInstance } from './app-instance';
import { DEMO } from './support';

let app: AppInstance;
test.beforeAll(async () => {
  app = await startApp(3531, { SESSION_IDLE_S: '2', SESSION_TTL_S: '5' });
});
test.afterAll(() => app.stop());

async function signIn(): Promise<string> {
  const response = await fetch(`${app.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  expect(response.status).toBe(204);
  expect(response.headers.get('set-cookie')).toMatch(/Max-Age=\d+/);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** Calls /api/session and follows the cookie the server re-seals (as a browser would). */
async function whoAmI(cookie: string): Promise<{ status: number; detail?: string; cookie: string }> {
  const response = await fetch(`${app.url}/api/session`, { headers: { cookie } });
  const renewed = response.headers.get('set-cookie')?.split(';')[0];
  const body = await response.json();
  return { status: response.status, detail: body.detail, cookie: renewed ?? cookie };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the idle timeout ends a quiet session, and activity slides it', async () => {
  let active = await signIn();
  for (let i = 0; i < 4; i++) {
    await wait(800);
    const me = await whoAmI(active);
    expect(me.status).toBe(200);
    active = me.cookie;
  }
  const quiet = await signIn();
  await wait(2200);
  expect(await whoAmI(quiet)).toMatchObject({ status: 401, detail: 'session: ended after inactivity; sign in again' });
});

test('the absolute lifetime ends a session however active it is', async () => {
  let cookie = await signIn();
  const started = Date.now();
  let last = await whoAmI(cookie);
  while (Date.now() - started < 5500) {
    await wait(700);
    last = await whoAmI(cookie);
    cookie = last.cookie;
    if (last.status === 401) break;
  }
  expect(last).toMatchObject({ status: 401, detail: 'session: expired; sign in again' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
});
