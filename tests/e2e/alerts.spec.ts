import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { AlertHistory, AlertRule, AlertRuleList } from '../../lib/contract/alerts';
import { signInContext } from './signed-in';
import { APP_URL, DEMO, DEMO_ADMIN, DEMO_VIEWER, api, escapeRegExp, sandbox, signIn, type ApiBatch } from './support';

const unique = (what: string) => `${what} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const json = (cookie: string, path: string, method: string, body?: unknown) =>
  api(path, { method, cookie, json: body, headers: { origin: APP_URL } });
const rules = async (cookie: string) => ((await (await api('/api/alerts', { cookie })).json()) as AlertRuleList).rules;

/** Every rule of the demo organisation goes after each test: while one exists, the watcher polls the sandbox for it, which other specs' counts of upstream calls would see. */
test.afterEach(async () => {
  const admin = await signIn(DEMO_ADMIN);
  for (const rule of await rules(admin))
    expect((await json(admin, `/api/alerts/${rule.id}`, 'DELETE')).status).toBe(204);
});

const ruleItem = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('an editor creates a rule with every field, a refusal shown at its field; it is listed in words, edited (its secret kept, never shown) and deleted', async ({
  page,
}) => {
  const cookie = await signInContext(page.context(), DEMO);
  await page.goto('/alerts');
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Alerts', exact: true }),
  ).toHaveAttribute('aria-current', 'page');
  await page.getByRole('button', { name: 'New alert' }).click();
  const form = page.getByRole('form', { name: 'New alert' });
  const name = unique('Lettuce germination');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Alert when').selectOption({ label: 'A batch misses its targets' });
  await form.getByLabel('Target').selectOption({ label: 'Germination' });
  await form.getByLabel('Crop (optional)').fill('Lettuce');
  await form.getByLabel('Search text (optional)').fill('tray');
  const recipients = form.getByRole('group', { name: 'Recipients' });
  await expect(recipients.getByRole('checkbox', { name: `${DEMO.name} (you) ${DEMO.email}` })).toBeChecked();
  await recipients.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(DEMO_VIEWER.name)} `) }).check();
  // Only an administrator may add an address outside the organisation.
  await expect(form.getByLabel('Another e-mail address')).toHaveCount(0);
  await form.getByRole('button', { name: 'Add webhook' }).click();
  const webhook = form.getByRole('group', { name: 'Webhook 1' });
  await webhook.getByLabel('URL').fill('https://93.184.216.34/alerts');
  await webhook.getByLabel('Format').selectOption({ label: 'Slack' });
  await webhook.getByLabel('Secret').fill('too short');
  await form.getByLabel('Daily digest').check();
  await form.getByLabel('At', { exact: true }).selectOption({ label: '06:00' });
  await form.getByLabel('Paused (kept, but not checked)').check();
  await form.getByRole('button', { name: 'Create alert' }).click();

  // The server's 422 names the secret: said beside it, and it takes the focus.
  const secret = webhook.getByLabel('Secret');
  await expect(secret).toBeFocused();
  await expect(secret).toHaveAttribute('aria-invalid', 'true');
  await expect(secret).toHaveAccessibleDescription(/a webhook secret has at least 16 characters/);
  await secret.fill('a-secret-of-more-than-sixteen');
  await form.getByRole('button', { name: 'Create alert' }).click();
  await expect(page.getByText(`“${name}” is created.`)).toBeVisible();
  await expect(form).toHaveCount(0);

  const item = ruleItem(page, name);
  await expect(item).toContainText('A batch is below its germination target · crop Lettuce · search “tray”');
  await expect(item).toContainText('Daily digest at 06:00');
  await expect(item).toContainText(`${DEMO.name} (you), ${DEMO_VIEWER.name}`);
  await expect(item).toContainText('93.184.216.34 (Slack, signed)');
  await expect(item).toContainText('Paused');
  await expect(item).toContainText('You receive it');
  expect(await page.content()).not.toContain('a-secret-of-more-than-sixteen');
  const [saved] = (await rules(cookie)).filter((r) => r.name === name);
  expect(saved).toMatchObject({
    when: 'misses-target',
    target: 'germination',
    crop: 'Lettuce',
    search: 'tray',
    recipients: [DEMO.email, DEMO_VIEWER.email],
    webhooks: [{ url: 'https://93.184.216.34/alerts', format: 'slack', secretSet: true }],
    delivery: 'daily',
    digestHour: 6,
    paused: true,
  } satisfies Partial<AlertRule>);

  // Edited: the secret is said to be set, not shown, and stays when no new one is typed.
  await item.getByRole('button', { name: `Edit “${name}”` }).click();
  const edit = page.getByRole('form', { name: `Edit “${name}”` });
  await expect(edit.getByLabel('Alert when')).toBeDisabled();
  await expect(edit.getByRole('group', { name: 'Webhook 1' }).getByLabel('Secret')).toHaveValue('');
  await expect(edit.getByRole('group', { name: 'Webhook 1' }).getByLabel('Secret')).toHaveAccessibleDescription(
    'Secret set: type a new one to replace it.',
  );
  await edit.getByLabel('Hourly digest').check();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`“${name}” is saved.`)).toBeVisible();
  await expect(item).toContainText('Hourly digest');
  expect((await rules(cookie)).find((r) => r.name === name)).toMatchObject({
    delivery: 'hourly',
    webhooks: [{ secretSet: true }],
  });

  await item.getByRole('button', { name: `Delete “${name}”` }).click();
  await item
    .getByRole('group', { name: `Delete the alert “${name}”?` })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByText(`“${name}” is deleted.`)).toBeVisible();
  await expect(ruleItem(page, name)).toHaveCount(0);
});

test('a viewer sees the rules but no New alert, is refused a new rule (403), and subscribes, mutes and goes back to the default for themselves', async ({
  page,
}) => {
  const admin = await signIn(DEMO_ADMIN);
  const name = unique('Warnings');
  const created = await json(admin, '/api/alerts', 'POST', {
    name,
    when: 'warnings',
    recipients: [DEMO_ADMIN.email],
    delivery: 'immediate',
  });
  expect(created.status).toBe(201);

  const viewer = await signInContext(page.context(), DEMO_VIEWER);
  const refused = await json(viewer, '/api/alerts', 'POST', {
    name: 'Mine',
    when: 'warnings',
    recipients: [],
    delivery: 'immediate',
  });
  expect(refused.status).toBe(403);
  await page.goto('/alerts');
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  const item = ruleItem(page, name);
  await expect(item).toContainText('A batch has warnings · every crop');
  await expect(page.getByRole('button', { name: 'New alert' })).toHaveCount(0);
  await expect(item.getByRole('button', { name: `Edit “${name}”` })).toHaveCount(0);
  await expect(item.getByRole('button', { name: `Delete “${name}”` })).toHaveCount(0);
  await expect(item.getByRole('radio', { name: 'Default' })).toBeChecked();
  await expect(item).toContainText('You do not receive it');

  await item.getByRole('radio', { name: 'Subscribe' }).check();
  await expect(page.getByText(`You are subscribed to “${name}”.`)).toBeVisible();
  await expect(item).toContainText('You receive it');
  await page.reload();
  await expect(ruleItem(page, name).getByRole('radio', { name: 'Subscribe' })).toBeChecked();
  expect((await rules(viewer)).find((r) => r.name === name)).toMatchObject({
    subscription: 'subscribed',
    receiving: true,
  });

  await ruleItem(page, name).getByRole('radio', { name: 'Mute' }).check();
  await expect(page.getByText(`“${name}” is muted for you.`)).toBeVisible();
  await expect(ruleItem(page, name)).toContainText('You do not receive it');
  await ruleItem(page, name).getByRole('radio', { name: 'Default' }).check();
  await expect(page.getByText(`“${name}”: back to the default for you.`)).toBeVisible();
  expect((await rules(viewer)).find((r) => r.name === name)).toMatchObject({ subscription: 'none', receiving: false });

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
});

test('a batch below target is reported: the bell counts it unread, opens the history (its batch linked, to whom, channel, delivered) and marks it read', async ({
  page,
  browser,
}) => {
  const editor = await signInContext(page.context(), DEMO);
  const name = unique('Short germination');
  const created = await json(editor, '/api/alerts', 'POST', {
    name,
    when: 'misses-target',
    target: 'germination',
    recipients: [DEMO.email],
    delivery: 'immediate',
  });
  expect(created.status).toBe(201);
  const rule = (await created.json()) as AlertRule;

  // A new batch far below any germination target arrives at the service after the rule was made (a second
  // on: the service writes whole seconds, and a batch of the rule's own second would count as older).
  const [model] = ((await (await api('/api/batches', { cookie: editor })).json()) as { data: ApiBatch[] }).data;
  const batchId = `alert-e2e-${Date.now().toString(36)}`;
  const add = {
    ...model!,
    batch_id: batchId,
    batch_name: 'Alert test batch',
    batch_creation_date: new Date(Date.now() + 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
    avg_germination_rate: '41.00',
  };
  await sandbox('POST', '/_sandbox/edit', { clientId: DEMO.clientId, add: [add] });
  try {
    // The watcher checks every few seconds in this app (WATCH_INTERVAL_S).
    await expect
      .poll(
        async () => ((await (await api('/api/alerts/history', { cookie: editor })).json()) as AlertHistory).unread,
        { timeout: 45_000 },
      )
      .toBeGreaterThan(0);

    await page.goto('/account');
    const bell = page.getByRole('link', { name: /^Alerts, \d+ unread$/ });
    await expect(bell).toBeVisible();
    await bell.click();
    await expect(page).toHaveURL(/\/alerts#history$/);
    const history = page.getByRole('table', { name: 'Alerts sent, newest first' });
    const row = history.getByRole('row').filter({ hasText: name }).filter({ hasText: 'In the app' }).first();
    await expect(row).toContainText('New');
    await expect(row).toContainText('Delivered');
    await expect(row).toContainText('1 batch: Alert test batch');
    await expect(row).toContainText(DEMO.email);
    const link = row.getByRole('link', { name: `Open batch ${batchId}` });
    await expect(link).toHaveAttribute('href', `/batches?batch=${encodeURIComponent(batchId)}`);
    await expect(
      history.getByRole('row').filter({ hasText: name }).filter({ hasText: 'E-mail' }).first(),
    ).toContainText(DEMO.email);
    // Opened here: read. The bell says so at once, and so does the next visit.
    await expect(page.getByRole('link', { name: 'Alerts, none unread' })).toBeVisible();
    expect(((await (await api('/api/alerts/history', { cookie: editor })).json()) as AlertHistory).unread).toBe(0);
    await page.reload();
    await expect(history.getByRole('row').filter({ hasText: name }).first()).not.toContainText('New');
    expect((await rules(editor)).find((r) => r.id === rule.id)).toMatchObject({ receiving: true });

    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations).toEqual([]);

    // A German reader's history says what fired, and how it went, in German.
    const german = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    try {
      await signInContext(german, DEMO);
      const seite = await german.newPage();
      await seite.goto('/alerts');
      const verlauf = seite.getByRole('table', { name: 'Gesendete Benachrichtigungen, neueste zuerst' });
      const zeile = verlauf.getByRole('row').filter({ hasText: name }).filter({ hasText: 'In der App' }).first();
      await expect(zeile).toContainText('1 Charge: Alert test batch');
      await expect(zeile).toContainText('Zugestellt');
    } finally {
      await german.close();
    }
  } finally {
    await sandbox('POST', '/_sandbox/edit', { clientId: DEMO.clientId, remove: [batchId] });
  }
});
