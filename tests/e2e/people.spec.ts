import { expect, test, type Page } from '@playwright/test';
import { signInContext } from './signed-in';
import { APP_URL, DEMO, DEMO_ADMIN, DEMO_VIEWER, PEOPLE, api, sandbox, signIn, status } from './support';

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

const unique = (what: string) => `${what}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const json = (cookie: string, path: string, method: string, body?: unknown) =>
  api(path, { method, cookie, json: body, headers: { origin: APP_URL } });

/** Opens a one-time link in a browser of its own and sets the password (and the name, for an invite) there. */
async function useLink(page: Page, url: string, password: string, name?: string) {
  await page.goto(url);
  if (name !== undefined) await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
}

test('an administrator invites someone on the People page; the invite page sets their name and password and signs them in, once', async ({
  page,
  browser,
}) => {
  await signInContext(page.context(), DEMO_ADMIN);
  await page.goto('/admin/people');
  await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
  const email = `${unique('invited')}@demo.example`;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('editor');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const link = page.getByRole('group', { name: `Invitation link for ${email}` });
  await expect(link).toBeVisible();
  const url = (await link.locator('code').textContent())!;
  expect(url).toMatch(new RegExp(`^${APP_URL}/invite/[A-Za-z0-9_-]{43}$`));
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Invitation open');

  const invited = await browser.newContext();
  const them = await invited.newPage();
  await them.goto(url);
  await expect(them.getByText(`You were invited to Greenfield Seeds (demo) as ${email}.`)).toBeVisible();
  await useLink(them, url, 'short', 'Ana Jansen');
  await expect(them.getByLabel('Password')).toHaveAccessibleDescription('The password needs at least 12 characters.');
  await useLink(them, url, 'a good long password', 'Ana Jansen');
  await expect(them).toHaveURL(/\/batches\?/);
  await expect(them.getByRole('link', { name: /^Your account: Ana Jansen, editor$/ })).toBeVisible();
  await expect(status(them)).toHaveText(/^[\d,]+ batches$/, { timeout: 30_000 });

  // The link was for once: used again, it says so, and nobody is signed in by it.
  const again = await (await browser.newContext()).newPage();
  await again.goto(url);
  await expect(again.getByRole('heading', { name: 'This link is not valid any more' })).toBeVisible();
  await expect(again.getByRole('button', { name: 'Set password' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Active');
  await invited.close();
});

test('an administrator disables, enables and removes someone, and makes a reset link; the page says what happened', async ({
  page,
}) => {
  const admin = await signInContext(page.context(), DEMO_ADMIN);
  const email = `${unique('leaver')}@demo.example`;
  const invited = (await (await json(admin, '/api/admin/people', 'POST', { email, role: 'viewer' })).json()) as {
    id: string;
  };
  await page.goto('/admin/people');
  const row = page.getByRole('row', { name: new RegExp(email) });
  await row.getByRole('combobox', { name: `Role of ${email}` }).selectOption('editor');
  await expect(page.getByText(`${email} is now editor.`)).toBeVisible();
  await row.getByRole('button', { name: `Disable ${email}` }).click();
  await expect(row).toContainText('Disabled');
  await row.getByRole('button', { name: `Enable ${email}` }).click();
  await expect(row).toContainText('Invitation open');
  await row.getByRole('button', { name: `Make a password reset link for ${email}` }).click();
  await expect(page.getByRole('group', { name: `Password reset link for ${email}` })).toContainText('/reset/');
  await row.getByRole('button', { name: `Remove ${email} from the organisation` }).click();
  await row.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText(`${email} is removed from the organisation.`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
  expect((await json(admin, `/api/admin/people/${invited.id}`, 'PATCH', { role: 'viewer' })).status).toBe(404);
});

test('the connection page: the client ID and when the secret was set, never the secret; Test connection; Replace secret is tried first', async ({
  page,
}) => {
  await signInContext(page.context(), DEMO_ADMIN);
  await page.goto('/admin/connection');
  await expect(page.getByText('demo-client', { exact: true })).toBeVisible();
  await expect(page.getByText(/^secret set on /)).toBeVisible();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('The Batch Data Service accepted the client ID and secret.')).toBeVisible();
  await page.getByLabel('New client secret').fill('not-the-secret');
  await page.getByRole('button', { name: 'Replace secret' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Nothing was saved: the Batch Data Service refused the client ID or secret',
  );
  await page.getByLabel('New client secret').fill('demo-secret');
  await page.getByRole('button', { name: 'Replace secret' }).click();
  await expect(page.getByText('Saved: the service accepted the new secret.')).toBeVisible();
  await expect(page.getByText(/^secret set on .* by Demo Admin$/)).toBeVisible();
  expect(await page.content()).not.toContain('demo-secret');
});

test('the activity page lists who did what, filters by action, and exports CSV', async ({ page }) => {
  const editor = await signIn(DEMO);
  const view = (await (
    await json(editor, '/api/settings/views', 'POST', { name: unique('Activity view'), query: 'warn=1' })
  ).json()) as { id: string; name: string };
  await json(editor, `/api/settings/views/${view.id}`, 'DELETE');
  await signInContext(page.context(), DEMO_ADMIN);
  await page.goto('/admin/activity');
  await page.getByLabel('Action').selectOption({ label: 'View deleted' });
  await page.getByRole('button', { name: 'Show' }).click();
  const row = page.getByRole('row', { name: new RegExp(view.name) });
  await expect(row).toContainText('Demo Editor');
  await expect(row).toContainText('View deleted');
  await expect(row).toContainText('personal');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  expect(csv.split('\r\n')[0]).toBe('at,actor_email,actor_name,action,subject,before,after,address');
  expect(csv).toContain(`view_deleted,${view.name}`);

  // Sign-ins in words: how, and whether the dashboard let them in.
  expect(
    (await json('', '/api/session', 'POST', { email: DEMO.email, password: 'not the password at all' })).status,
  ).toBe(401);
  await page.getByLabel('Action').selectOption({ label: 'Signed in' });
  await page.getByLabel('Person').fill(DEMO.email);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Sign-in refused' }).first()).toContainText(
    'refused (password)',
  );
  await expect(page.getByRole('row').filter({ hasText: 'Signed in' }).first()).toContainText('with password');
});

test('a viewer’s explorer: Save targets, sharing and the default are unavailable, each saying why on focus; their own views are theirs', async ({
  page,
}) => {
  await signInContext(page.context(), DEMO_VIEWER);
  await page.goto('/batches?tz=UTC');
  await expect(status(page)).toHaveText(/^[\d,]+ batches$/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Targets', exact: true }).click();
  const save = page.getByRole('button', { name: 'Save targets' });
  await expect(save).toHaveAttribute('aria-disabled', 'true');
  const reason =
    'Only an editor or an administrator can save the targets for the organisation; you are a viewer. You can still try targets out: they travel in the link.';
  await expect(save).toHaveAccessibleDescription(reason);
  await save.focus();
  await expect(page.getByRole('tooltip', { name: reason })).toBeVisible();
  const saves: string[] = [];
  page.on('request', (r) => r.method() === 'PUT' && saves.push(r.url()));
  await save.click({ force: true });
  expect(saves).toEqual([]);

  await page.getByRole('button', { name: 'Save view' }).click();
  const share = page.getByRole('checkbox', { name: 'Share with the organisation' });
  await expect(share).toHaveAttribute('aria-disabled', 'true');
  await expect(share).toHaveAccessibleDescription(
    /^Only an editor or an administrator can share a view with the organisation; you are a viewer\./,
  );
  const name = unique('Viewer view');
  await page.getByLabel('View name').fill(name);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Saved views' }).click();
  const row = page.getByRole('listitem').filter({ hasText: name });
  await expect(row).toContainText('Only you');
  await expect(row.getByRole('button', { name: `Make default: ${name}` })).toHaveAttribute('aria-disabled', 'true');
  await expect(row.getByRole('button', { name: `Share “${name}” with the organisation` })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await row.getByRole('button', { name: `Delete: ${name}` }).click();
  await row.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
});

test('the Targets panel says who changed the targets last, lists the history and restores an earlier set', async ({
  page,
}) => {
  const admin = await signIn(DEMO_ADMIN);
  const first = { general: { germination: 87, usable: null, cv: null }, crops: {} };
  const second = {
    general: { germination: 88, usable: 75, cv: null },
    crops: { Lettuce: { germination: 80, usable: null, cv: null } },
  };
  expect((await json(admin, '/api/settings/targets', 'PUT', { targets: first })).status).toBe(200);
  expect((await json(admin, '/api/settings/targets', 'PUT', { targets: second })).status).toBe(200);
  await signInContext(page.context(), DEMO);
  await page.goto('/batches?tz=UTC');
  await page.getByRole('button', { name: 'Targets', exact: true }).click();
  await expect(page.getByText(/^Last changed by Demo Admin, /)).toBeVisible();
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('table', { name: 'Saved target sets of your organisation, newest first' });
  await expect(history.getByRole('row').nth(1)).toContainText('In force');
  await expect(history.getByRole('row').nth(1)).toContainText('General usable-seedling target: none → 75%');
  await expect(history.getByRole('row').nth(1)).toContainText('Lettuce: germination target: none → 80%');
  await history
    .getByRole('row')
    .nth(2)
    .getByRole('button', { name: /^Restore the targets saved / })
    .click();
  await expect(page.getByText('Restored: these targets are the organisation’s again.')).toBeVisible();
  await expect(page.getByText(/^Last changed by Demo Editor, /)).toBeVisible();
  const now = (await (await api('/api/settings/targets', { cookie: admin })).json()) as { targets: unknown };
  expect(now.targets).toEqual(first);
  // Back to the defaults the other specs judge by.
  expect(
    (
      await json(admin, '/api/settings/targets', 'PUT', {
        targets: { general: { germination: 90, usable: null, cv: null }, crops: {} },
      })
    ).status,
  ).toBe(200);
});

test('a member of two organisations switches between them in the header; the address names the organisation; another organisation’s page is 403', async ({
  page,
}) => {
  // A person of the demo organisation whom Hillside's administrator adds too.
  const demoAdmin = await signIn(DEMO_ADMIN);
  const email = `${unique('consultant')}@demo.example`;
  const { inviteUrl } = (await (
    await json(demoAdmin, '/api/admin/people', 'POST', { email, role: 'editor' })
  ).json()) as { inviteUrl: string };
  await useLink(page, inviteUrl, 'a good long password', 'Consultant');
  await expect(page).toHaveURL(/\/batches\?/);
  const otherAdmin = await signIn(PEOPLE.other.admin);
  const added = await json(otherAdmin, '/api/admin/people', 'POST', { email, role: 'viewer' });
  expect([added.status, ((await added.json()) as { inviteUrl: unknown }).inviteUrl]).toEqual([201, null]);

  await page.goto('/batches');
  await expect(page).toHaveURL(/\/batches\?org=demo(&|$)/);
  const organisation = page.getByRole('combobox', { name: 'Organisation' });
  await expect(organisation).toHaveValue('demo');
  // Every call the Hillside page makes to our API carries its organisation.
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/') && new URL(r.frame().url()).searchParams.get('org') === 'other') calls.push(r.url());
  });
  await organisation.selectOption({ label: 'Hillside Growers' });
  await expect(page).toHaveURL(/\/batches\?org=other(&|$)/);
  await expect(page.getByRole('link', { name: /^Your account: Consultant, viewer$/ })).toBeVisible();
  const otherCount = (await (await api('/api/batches/stream?org=other', { cookie: otherAdmin })).text()).match(
    /"count":(\d+)/,
  )![1];
  await expect(status(page)).toHaveText(`${Number(otherCount).toLocaleString('en')} batches`, { timeout: 30_000 });
  const after = calls.filter((u) => !u.includes('/api/account'));
  for (const path of ['/api/settings/targets', '/api/batches/stream', '/api/session/cache-key'])
    expect(
      after.some((u) => u.includes(path)),
      path,
    ).toBe(true);
  expect(after.filter((u) => new URL(u).searchParams.get('org') !== 'other')).toEqual([]);

  // An organisation they are not a member of: the 403 page, never its data.
  const response = await page.goto('/batches?org=drift');
  expect(response?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  expect(await page.content()).not.toContain('Drift Nursery');
});

test('the administration pages are the administrators’: an editor gets the 403 page; signed out, sign-in and back', async ({
  page,
}) => {
  await page.goto('/admin/people');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fadmin%2Fpeople$/);
  await signInContext(page.context(), DEMO);
  for (const path of ['/admin/people', '/admin/connection', '/admin/activity']) {
    const response = await page.goto(path);
    expect([path, response?.status()]).toEqual([path, 403]);
    await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  }
  await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'People' })).toHaveCount(0);
});

test('the account page lists this browser’s session and others, signs the others out, and keeps the time zone for e-mails', async ({
  page,
}) => {
  const person = PEOPLE.special.viewer;
  const elsewhere = await signIn(person);
  await signInContext(page.context(), person);
  await page.goto('/account');
  const sessions = page.getByRole('table');
  await expect(sessions.getByText('This session')).toBeVisible();
  expect(await sessions.getByRole('row').count()).toBeGreaterThanOrEqual(3);
  await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(page.getByText('Signed out.')).toBeVisible();
  await expect(sessions.getByRole('row')).toHaveCount(2);
  expect((await api('/api/session', { cookie: elsewhere })).status).toBe(401);
  await page.getByLabel('Time zone for e-mails').selectOption('Europe/Amsterdam');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Time zone for e-mails')).toHaveValue('Europe/Amsterdam');
});
