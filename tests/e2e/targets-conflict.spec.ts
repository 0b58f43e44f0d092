import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEFAULT_TARGETS, type TargetSettings } from '../../lib/contract';
import { formatsFor } from '../../lib/i18n/formats';
import { signInContext } from './signed-in';
import { api, APP_URL, DEMO, DEMO_ADMIN, sandbox, signIn, status, type Credentials } from './support';

// The organisation's targets outlive a test: start from the defaults, and leave them so.
async function resetTargets() {
  const response = await api('/api/settings/targets', {
    method: 'PUT',
    cookie: await signIn(DEMO),
    json: { targets: DEFAULT_TARGETS },
    headers: { origin: APP_URL },
  });
  expect(response.status).toBe(200);
}
const savedTargets = async () =>
  (await (await api('/api/settings/targets', { cookie: await signIn(DEMO) })).json()) as TargetSettings;

test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
});
test.afterEach(resetTargets);

/** A signed-in page of the explorer with the Targets panel open, in `locale`, as `person` (an editor of the demo organisation unless said). */
async function openTargets(
  browser: Browser,
  locale: string,
  path: string,
  words = { count: '3,000 batches', targets: 'Targets' },
  person: Credentials = DEMO,
): Promise<Page> {
  const context = await browser.newContext({ locale });
  await signInContext(context, person);
  const page = await context.newPage();
  await page.goto(path);
  await expect(status(page)).toHaveText(words.count, { timeout: 20_000 });
  await page.getByRole('button', { name: words.targets, exact: true }).click();
  return page;
}

/** A colleague (the organisation's administrator) saves Lettuce's germination target in their own browser, and what the server then holds. */
async function colleagueSaves(browser: Browser, lettuce: string): Promise<TargetSettings> {
  const page = await openTargets(browser, 'en-GB', '/batches?tz=UTC', undefined, DEMO_ADMIN);
  await page.getByLabel('Lettuce germination target (%)').fill(lettuce);
  await page.getByRole('button', { name: 'Save targets' }).click();
  await expect(page.getByRole('region', { name: 'Targets' }).getByText('Saved.', { exact: true })).toBeVisible();
  await page.context().close();
  return savedTargets();
}

test('a save after a colleague’s says so in the reader’s language and time; Reload takes theirs', async ({
  browser,
}) => {
  const page = await openTargets(browser, 'en-GB', '/batches?tz=UTC');
  const panel = page.getByRole('region', { name: 'Targets' });
  await expect(panel.getByText(/^Last changed by Demo Editor, /)).toBeVisible();
  await page.getByLabel('Lettuce germination target (%)').fill('97');

  const theirs = await colleagueSaves(browser, '85');
  const when = formatsFor('en-GB').dateTime(Date.parse(theirs.updatedAt!), 'UTC');
  await page.getByRole('button', { name: 'Save targets' }).click();
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText(
    `${DEMO_ADMIN.name} changed the targets on ${when}, while you were editing them. Reload shows their targets and discards your changes; Keep mine saves yours over theirs.`,
  );
  await expect(alert).not.toContainText(theirs.updatedAt!); // no raw server sentence, no ISO instant
  await expect(panel.getByText(`Last changed by ${DEMO_ADMIN.name}, ${when}.`)).toBeVisible();
  // Nothing of theirs was lost.
  expect((await savedTargets()).targets.crops.Lettuce?.germination).toBe(85);

  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByLabel('Lettuce germination target (%)')).toHaveValue('85');
  await expect(page).not.toHaveURL(/targets=/);
  await expect(panel.getByRole('button', { name: 'Save targets' })).toBeDisabled();
  expect((await savedTargets()).updatedAt).toBe(theirs.updatedAt);
});

test('German, in the view’s zone: Meine behalten saves the draft over the colleague’s version', async ({ browser }) => {
  const zone = 'Europe/Berlin';
  const page = await openTargets(browser, 'de-DE', `/batches?tz=${zone}`, {
    count: `${(3000).toLocaleString('de-DE')} Chargen`,
    targets: 'Sollwerte',
  });
  const panel = page.getByRole('region', { name: 'Sollwerte' });
  await page.getByLabel('Lettuce: Keimraten-Sollwert (%)').fill('97,5');

  const theirs = await colleagueSaves(browser, '85');
  const de = formatsFor('de-DE');
  await page.getByRole('button', { name: 'Sollwerte speichern' }).click();
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText(
    `${DEMO_ADMIN.name} hat die Sollwerte am ${de.dateTime(Date.parse(theirs.updatedAt!), zone)} geändert, während Sie sie bearbeitet haben.`,
  );
  await expect(alert).not.toContainText(/colleague|targets:|\dT\d/);
  await expect(
    panel.getByText(`Zuletzt geändert von ${DEMO_ADMIN.name}, ${de.dateTime(Date.parse(theirs.updatedAt!), zone)}.`),
  ).toBeVisible();

  await alert.getByRole('button', { name: 'Meine behalten' }).click();
  await expect(panel.getByText('Gespeichert.', { exact: true })).toBeVisible();
  await expect(alert).toHaveCount(0);
  const mine = await savedTargets();
  expect(mine.targets.crops.Lettuce?.germination).toBe(97.5);
  expect(Date.parse(mine.updatedAt!)).toBeGreaterThan(Date.parse(theirs.updatedAt!));
  await expect(
    panel.getByText(`Zuletzt geändert von ${DEMO.name}, ${de.dateTime(Date.parse(mine.updatedAt!), zone)}.`),
  ).toBeVisible();
  await expect(page.getByLabel('Lettuce: Keimraten-Sollwert (%)')).toHaveValue('97,5');
  await expect(page).not.toHaveURL(/targets=/);

  // The colleague, opening the page again, sees the kept targets.
  const colleague = await openTargets(browser, 'en-GB', '/batches?tz=UTC');
  await expect(colleague.getByLabel('Lettuce germination target (%)')).toHaveValue('97.5');
});
