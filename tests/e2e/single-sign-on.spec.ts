import { request as httpRequest } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { PROVIDER_CLIENT, startOidcProvider, type OidcProvider } from '../helpers/oidc-provider';
import { makeTestCa, type TestCa } from '../helpers/test-ca';
import { startApp, type AppInstance } from './app-instance';
import { APP_URL, DEMO_ADMIN } from './support';

/**
 * Single sign-on against a real OpenID provider (oidc-provider) on loopback over https, under a CA made here and
 * given to the app through NODE_EXTRA_CA_CERTS only; the built app in Chromium, through the provider's own
 * sign-in page. The browser is told to accept the test CA's certificate (the provider's page); the app is not.
 */
const APP_PORT = 3571;
const PROVIDER_PORT = 3572;
const APP = `http://127.0.0.1:${APP_PORT}`;
/** A second app that names no organisation for single sign-on (OIDC_ORGANISATION unset), of the same provider. */
const UNNAMED_PORT = 3573;
const UNNAMED = `http://127.0.0.1:${UNNAMED_PORT}`;
/** An administrator of the organisation single sign-on people join (provisioned with the test apps' people). */
const ADMIN = { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password };
const NAME = 'Test IdP';
/** Callbacks one address may open a minute (SIGNIN_ATTEMPTS_PER_IP): above what the browser tests here use. */
const CALLBACKS_PER_MINUTE = 40;
const METRICS_TOKEN = 'single-sign-on-metrics-token-0123';

let ca: TestCa;
let provider: OidcProvider;
let app: AppInstance;
const log: string[] = [];

test.use({ ignoreHTTPSErrors: true, baseURL: APP });

test.beforeAll(async () => {
  ca = makeTestCa();
  provider = await startOidcProvider({
    port: PROVIDER_PORT,
    ca,
    redirectUris: [`${APP}/api/auth/oidc/callback`, `${UNNAMED}/api/auth/oidc/callback`],
  });
  app = await startApp(
    APP_PORT,
    {
      NODE_EXTRA_CA_CERTS: ca.caFile,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: PROVIDER_CLIENT.id,
      OIDC_CLIENT_SECRET: PROVIDER_CLIENT.secret,
      OIDC_NAME: NAME,
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ADMIN_VALUES: 'dashboard-admins',
      OIDC_EDITOR_VALUES: 'agronomists',
      OIDC_ALLOWED_DOMAINS: 'example.com',
      // The test apps hold every sandbox organisation: the one new people join is named.
      OIDC_ORGANISATION: DEMO_ADMIN.org,
      SIGNIN_ATTEMPTS_PER_IP: String(CALLBACKS_PER_MINUTE),
      METRICS_TOKEN,
    },
    log,
  );
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
  ca?.remove();
});

/** An administrator's session cookie, signed in with a password over the API. */
async function adminCookie(): Promise<string> {
  const response = await fetch(`${APP}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: APP },
    body: JSON.stringify(ADMIN),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

async function adminApi<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const response = await fetch(`${APP}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie: await adminCookie(), origin: APP, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : undefined,
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

type Entry = { action: string; actor: { email: string }; after: { method?: string; result?: string } | null };
const signInsOf = async (email: string) =>
  (await adminApi<{ entries: Entry[] }>('/api/admin/activity?action=sign_in&format=json')).entries.filter(
    (e) => e.actor.email.toLowerCase() === email.toLowerCase(),
  );

/** Who this browser is signed in as, and their role. */
async function session(page: Page): Promise<{ user: { email: string; name: string }; role: string } | null> {
  const response = await page.request.get('/api/session');
  return response.status() === 200 ? response.json() : null;
}

/** From the sign-in page through the provider's own page, signed in there as `login`. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByRole('link', { name: `Sign in with ${NAME}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('the sign-in page offers "Sign in with <OIDC_NAME>" only where single sign-on is configured', async ({ page }) => {
  await page.goto(`${APP_URL}/sign-in`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Sign in with/ })).toHaveCount(0);
  await page.goto('/sign-in');
  await expect(page.getByRole('link', { name: `Sign in with ${NAME}` })).toHaveAttribute(
    'href',
    '/api/auth/oidc/start',
  );
});

test('a new person joins as a viewer, and lands on the page they asked for', async ({ page }) => {
  provider.accounts.set('grace', {
    email: 'grace@example.com',
    email_verified: true,
    name: 'Grace Hopper',
    groups: ['everyone'],
  });
  await page.goto('/batches?tz=UTC&crop=Tomato');
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await signInAtProvider(page, 'grace');
  await expect(page).toHaveURL(`${APP}/batches?tz=UTC&crop=Tomato`);
  expect(await session(page)).toMatchObject({
    user: { email: 'grace@example.com', name: 'Grace Hopper' },
    role: 'viewer',
  });
  expect(await signInsOf('grace@example.com')).toContainEqual(
    expect.objectContaining({ after: expect.objectContaining({ method: 'oidc', result: 'ok' }) }),
  );
});

test('the admin group makes an administrator, and leaving it demotes them at their next sign-in', async ({ page }) => {
  provider.accounts.set('ada', {
    email: 'ada@example.com',
    email_verified: true,
    name: 'Ada Lovelace',
    groups: ['agronomists', 'dashboard-admins'],
  });
  await page.goto('/sign-in');
  await signInAtProvider(page, 'ada');
  await expect(page).toHaveURL(/\/batches/);
  expect(await session(page)).toMatchObject({ role: 'admin' });

  await page.request.delete('/api/session');
  provider.accounts.set('ada', { ...provider.accounts.get('ada')!, groups: ['agronomists'] });
  // Still signed in at the provider: it sends the browser straight back, with the claims as they are now.
  await page.goto('/sign-in');
  await page.getByRole('link', { name: `Sign in with ${NAME}` }).click();
  await expect(page).toHaveURL(/\/batches/);
  expect(await session(page)).toMatchObject({ user: { email: 'ada@example.com' }, role: 'editor' });

  await page.request.delete('/api/session');
  provider.accounts.set('ada', { ...provider.accounts.get('ada')!, groups: [] });
  await page.goto('/sign-in');
  await page.getByRole('link', { name: `Sign in with ${NAME}` }).click();
  await expect(page).toHaveURL(/\/batches/);
  expect(await session(page)).toMatchObject({ role: 'viewer' });
});

test('someone invited by e-mail is that same person, whatever the case of the address and its domain; the invite counts as accepted', async ({
  page,
}) => {
  const invited = await adminApi<{ id: string; inviteUrl: string }>('/api/admin/people', {
    method: 'POST',
    json: { email: 'Linus.Torvalds@Partner.TEST', role: 'viewer' },
  });
  const pending = async () =>
    (
      await adminApi<{ people: { id: string; email: string; invitePending: boolean }[] }>('/api/admin/people')
    ).people.filter((p) => p.email.toLowerCase() === 'linus.torvalds@partner.test');
  expect(await pending()).toEqual([expect.objectContaining({ id: invited.id, invitePending: true })]);
  provider.accounts.set('linus', {
    email: 'linus.torvalds@partner.test',
    email_verified: true,
    name: 'Linus',
    groups: ['agronomists'],
  });
  await page.goto('/sign-in');
  await signInAtProvider(page, 'linus');
  await expect(page).toHaveURL(/\/batches/);
  expect(await session(page)).toMatchObject({ role: 'editor' });
  expect(await pending()).toEqual([expect.objectContaining({ id: invited.id, invitePending: false })]);
  // The link itself is used up: nobody else can set a password for this address with it.
  const token = new URL(invited.inviteUrl).pathname.split('/').pop()!;
  expect((await fetch(`${APP}/api/links/${token}`)).status).toBe(404);
});

test('a domain that may not join is refused with a sentence, and the refusal is in the activity log', async ({
  page,
}) => {
  provider.accounts.set('mallory', { email: 'mallory@elsewhere.test', email_verified: true, name: 'Mallory' });
  await page.goto('/sign-in');
  await signInAtProvider(page, 'mallory');
  await expect(page).toHaveURL(/\/sign-in\?sso_error=domain$/);
  await expect(page.locator('main').getByRole('alert')).toHaveText(
    'Addresses at your e-mail domain may not join this dashboard by themselves. Ask an administrator to invite you.',
  );
  expect(await session(page)).toBeNull();
  expect(await signInsOf('mallory@elsewhere.test')).toEqual([
    expect.objectContaining({ after: expect.objectContaining({ method: 'oidc', result: 'refused' }) }),
  ]);
});

test('an address the provider has not verified is refused', async ({ page }) => {
  provider.accounts.set('eve', { email: 'eve@example.com', email_verified: false, name: 'Eve' });
  await page.goto('/sign-in');
  await signInAtProvider(page, 'eve');
  await expect(page.locator('main').getByRole('alert')).toHaveText(
    `${NAME} has not verified your e-mail address. Verify it there, then sign in again.`,
  );
  expect(await session(page)).toBeNull();
});

test('a disabled person is refused', async ({ page }) => {
  const { id } = await adminApi<{ id: string }>('/api/admin/people', {
    method: 'POST',
    json: { email: 'leaver@example.com', role: 'viewer' },
  });
  await adminApi(`/api/admin/people/${id}`, { method: 'PATCH', json: { disabled: true } });
  provider.accounts.set('leaver', { email: 'leaver@example.com', email_verified: true, name: 'Leaver' });
  await page.goto('/sign-in');
  await signInAtProvider(page, 'leaver');
  await expect(page.locator('main').getByRole('alert')).toHaveText(
    'Your account is disabled. Ask an administrator to enable it again.',
  );
  expect(await session(page)).toBeNull();
});

test('cancelling at the provider comes back as a sentence, in the reader’s language', async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: APP, locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByRole('link', { name: `Mit ${NAME} anmelden` }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/sign-in\?sso_error=cancelled$/);
  await expect(page.locator('main').getByRole('alert')).toHaveText(
    `Die Anmeldung bei ${NAME} wurde abgebrochen. Sie sind nicht angemeldet.`,
  );
  await context.close();
});

test('a callback opened again, or carrying another sign-in’s state, is refused', async ({ page }) => {
  provider.accounts.set('hedy', { email: 'hedy@example.com', email_verified: true, name: 'Hedy Lamarr' });
  const callback = page.waitForRequest((r) => r.url().startsWith(`${APP}/api/auth/oidc/callback?`));
  await page.goto('/sign-in');
  await signInAtProvider(page, 'hedy');
  await expect(page).toHaveURL(/\/batches/);
  const replayed = (await callback).url();

  // The same answer again (the back button, or someone who copied the URL): nothing in progress to finish.
  await page.goto(replayed);
  await expect(page).toHaveURL(/\/sign-in\?sso_error=expired$/);
  await expect(page.locator('main').getByRole('alert')).toHaveText(
    'This sign-in took too long or was already used. Start again with the button below.',
  );

  // Two sign-ins begun in one browser: the later one's transaction is the one kept, so the first one's answer
  // (its state) is refused, and the second one still goes through.
  await page.request.delete('/api/session');
  await page.context().clearCookies();
  const first = await page.context().newPage();
  await first.goto('/sign-in');
  await first.getByRole('link', { name: `Sign in with ${NAME}` }).click();
  await page.goto('/sign-in');
  await page.getByRole('link', { name: `Sign in with ${NAME}` }).click();
  await first.getByLabel('Username').fill('hedy');
  await first.getByRole('button', { name: 'Continue' }).click();
  await expect(first).toHaveURL(/\/sign-in\?sso_error=expired$/);
  expect(await session(first)).toBeNull();
  await page.getByLabel('Username').fill('hedy');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/batches/);
  expect(await session(page)).toMatchObject({ user: { email: 'hedy@example.com' } });
});

test('a `next` of another site is not followed', async ({ page }) => {
  provider.accounts.set('katherine', {
    email: 'katherine@example.com',
    email_verified: true,
    name: 'Katherine Johnson',
  });
  await page.goto('/api/auth/oidc/start?next=//evil.example/steal');
  await page.getByLabel('Username').fill('katherine');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`^${APP}/batches`));
});

test('a provider that cannot be reached comes back as a sentence, not an error page', async ({ page }) => {
  await page.goto('/sign-in');
  const authorization = page.waitForRequest((r) => r.url().startsWith(`${provider.issuer}/auth?`));
  await page.getByRole('link', { name: `Sign in with ${NAME}` }).click();
  const state = new URL((await authorization).url()).searchParams.get('state')!;
  await provider.pause();
  try {
    await page.goto(
      `/api/auth/oidc/callback?code=any-code&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(provider.issuer)}`,
    );
    await expect(page).toHaveURL(/\/sign-in\?sso_error=unreachable$/);
    await expect(page.locator('main').getByRole('alert')).toHaveText(
      `${NAME} could not be reached. Try again in a moment; if it keeps happening, tell your administrator.`,
    );
  } finally {
    await provider.resume();
  }
  expect(
    log.some(
      (line) =>
        line.includes('"msg":"single sign-on refused"') &&
        line.includes('"reason":"unreachable"') &&
        line.includes('ECONNREFUSED'),
    ),
  ).toBe(true);
});

/** Where a GET of `path` from the socket address `from` redirects (Linux routes all of 127/8 to loopback). */
function locationFrom(from: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: APP_PORT, localAddress: from, path, agent: false }, (res) => {
      res.resume();
      resolve(res.headers.location ?? `(${res.statusCode})`);
    });
    req.on('error', reject);
    req.end();
  });
}

test('callbacks from one address are limited to SIGNIN_ATTEMPTS_PER_IP a minute; other addresses are not held back', async () => {
  const path = '/api/auth/oidc/callback?code=guess&state=guess';
  for (let i = 0; i < CALLBACKS_PER_MINUTE; i++)
    expect(await locationFrom('127.0.0.9', path)).toBe('/sign-in?sso_error=expired');
  expect(await locationFrom('127.0.0.9', path)).toBe('/sign-in?sso_error=too_many');
  expect(await locationFrom('127.0.0.10', path)).toBe('/sign-in?sso_error=expired');
});

test('single sign-ons are counted in /metrics by how they ended', async () => {
  const scraped = await (
    await fetch(`${APP}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const count = (result: string) =>
    Number(new RegExp(`^sign_ins_total\\{method="oidc",result="${result}"\\} (\\d+)$`, 'm').exec(scraped)?.[1] ?? 0);
  // The tests above: people signed in, refused (a domain, a disabled account, replays) and held back (too many).
  expect([count('success') > 0, count('refused') > 0, count('throttled') > 0]).toEqual([true, true, true]);
});

test.describe('several organisations, none named for single sign-on', () => {
  let unnamed: AppInstance;
  test.use({ baseURL: UNNAMED });

  test.beforeAll(async () => {
    unnamed = await startApp(UNNAMED_PORT, {
      NODE_EXTRA_CA_CERTS: ca.caFile,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: PROVIDER_CLIENT.id,
      OIDC_CLIENT_SECRET: PROVIDER_CLIENT.secret,
      OIDC_NAME: NAME,
      OIDC_ALLOWED_DOMAINS: 'example.com',
    });
  });

  test.afterAll(async () => {
    await unnamed?.stop();
  });

  test('a member signs in to their own organisation with their role as it is; someone new is told no organisation is theirs', async ({
    page,
  }) => {
    provider.accounts.set('member', { email: DEMO_ADMIN.email.toUpperCase(), email_verified: true, name: 'Member' });
    await page.goto('/sign-in');
    await signInAtProvider(page, 'member');
    await expect(page).toHaveURL(/\/batches/);
    expect(await session(page)).toMatchObject({
      user: { email: DEMO_ADMIN.email },
      role: 'admin',
      organisation: { slug: DEMO_ADMIN.org },
    });

    await page.request.delete('/api/session');
    await page.context().clearCookies();
    provider.accounts.set('newcomer', { email: 'newcomer@example.com', email_verified: true, name: 'Newcomer' });
    await page.goto('/sign-in');
    await signInAtProvider(page, 'newcomer');
    await expect(page).toHaveURL(/\/sign-in\?sso_error=no_organisation$/);
    await expect(page.locator('main').getByRole('alert')).toHaveText(
      'Single sign-on does not know which organisation to sign you in to. Ask an administrator to invite you.',
    );
    expect(await session(page)).toBeNull();
  });
});
