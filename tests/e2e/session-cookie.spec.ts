import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { E2E_SESSION_SECRET } from '../../playwright.config';
import { APP_URL, EDGE, sandbox } from './support';

/** The id the app's seals carry for its session secret: the first 48 bits of its SHA-256 (lib/server/auth/session-keys.ts). */
const KEY_ID = String(createHash('sha256').update(E2E_SESSION_SECRET).digest().readUIntBE(0, 6));

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

// A browser can hold a session cookie the server cannot open (a broken deploy, a hand-edited value, another app on
// the host): it must lead to sign-in, never to an error page, and sign-in and sign-out must work from there.
for (const garbage of [
  '*******',
  'Fe26.2*__proto__*a*b*c*9999999999999*d*e~2',
  '"Fe26.2*1*a*b*c*9999999999999*d*e~2"',
]) {
  test(`a browser holding the garbage cookie ${garbage} lands on sign-in, signs in (the cookie replaced) and signs out`, async ({
    page,
  }) => {
    await page.context().addCookies([{ name: 'tsb_session', value: garbage, url: APP_URL }]);
    const held = async () =>
      (await page.context().cookies()).filter((c) => c.name === 'tsb_session').map((c) => c.value);
    expect(await held()).toEqual([garbage]);
    await page.goto('/batches?tz=UTC');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fbatches%3Ftz%3DUTC$/);
    await page.getByLabel('Email').fill(EDGE.email);
    await page.getByLabel('Password').fill(EDGE.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${APP_URL}/batches?from=all&to=now&tz=UTC`);
    await expect(page.getByRole('status').first()).toHaveText('22 batches');
    const [replaced] = await held();
    expect(replaced).toMatch(new RegExp(`^Fe26\\.2\\*${KEY_ID}\\*`));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    expect(await held()).toEqual([]);
  });
}

test('behind a TLS proxy, the browser keeps __Host-tsb_session from sign-in, the page reads it, and sign-out removes it', async ({
  page,
}) => {
  // The proxy's part, played by the test: every request says it came over https, with the origin the person saw.
  const httpsOrigin = APP_URL.replace('http:', 'https:');
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-proto': 'https' });
  // Chromium keeps its own Origin on a continued request: sign-in and sign-out are sent again from here with the
  // https one, and their answers handed to the browser as they came, so that Chromium itself takes (or refuses)
  // the Set-Cookie lines.
  await page.route('**/api/session', async (route) => {
    const request = route.request();
    const headers = await request.allHeaders();
    if (!headers.origin) return route.continue();
    const answer = await fetch(request.url(), {
      method: request.method(),
      headers: { ...headers, origin: httpsOrigin },
      body: request.postData(),
    });
    const passed = Object.fromEntries(
      [...answer.headers].filter(([name]) => !['set-cookie', 'content-encoding', 'content-length'].includes(name)),
    );
    const setCookie = answer.headers.getSetCookie();
    return route.fulfill({
      status: answer.status,
      headers: { ...passed, ...(setCookie.length ? { 'set-cookie': setCookie.join('\n') } : {}) },
      body: Buffer.from(await answer.arrayBuffer()),
    });
  });
  const held = async () => (await page.context().cookies()).map((c) => [c.name, c.secure]);
  await page.goto('/batches?tz=UTC');
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel('Email').fill(EDGE.email);
  await page.getByLabel('Password').fill(EDGE.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${APP_URL}/batches?from=all&to=now&tz=UTC`);
  await expect(page.getByRole('status').first()).toHaveText('22 batches');
  expect(await held()).toEqual([['__Host-tsb_session', true]]);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  expect(await held()).toEqual([]);
});
