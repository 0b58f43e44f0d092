import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_TARGETS } from '../../lib/contract';
import { signInContext } from './signed-in';
import { api, APP_URL, DEMO, escapeRegExp, sandbox, signIn, status, walkApi, type ApiBatch } from './support';

/**
 * The explorer in the reader's language and notation: a German browser gets German words, `93,4 %` and
 * `21.11.2026`; the URL stays free of either, so the same link opens in English for an English browser.
 */
test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

const ZONE = 'America/New_York';

const resetTargets = async () => {
  const response = await api('/api/settings/targets', {
    method: 'PUT',
    cookie: await signIn(DEMO),
    json: { targets: DEFAULT_TARGETS },
    headers: { origin: APP_URL },
  });
  expect(response.status).toBe(200);
};

test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
});
test.afterAll(resetTargets);

/** The organisation's newest batch with a germination rate: the first row of the table (newest first). */
async function newestBatch(): Promise<ApiBatch> {
  const { batches } = await walkApi(await signIn(DEMO));
  const newest = batches.toSorted((a, b) =>
    String(b.batch_creation_date).localeCompare(String(a.batch_creation_date)),
  )[0]!;
  expect(newest.avg_germination_rate).not.toBeNull();
  return newest;
}

/** The batch's creation time and germination rate as the reader's locale writes them (computed here, not by the app). */
function expectedCells(batch: ApiBatch, locale: string) {
  return {
    created: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: ZONE }).format(
      Date.parse(String(batch.batch_creation_date)),
    ),
    germination: new Intl.NumberFormat(locale, {
      style: 'percent',
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    }).format(Number(batch.avg_germination_rate) / 100),
  };
}

const rowOf = (page: Page, batch: ApiBatch) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: String(batch.batch_name), exact: true }) })
    .first();

async function signInHere(page: Page, submit: string, id: string, secret: string) {
  await page.getByLabel(id, { exact: true }).fill(DEMO.email);
  await page.getByLabel(secret, { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: submit, exact: true }).click();
}

test('a German browser gets the explorer in German and its notation; the link stays locale-free and opens in English elsewhere', async ({
  page,
  browser,
}) => {
  const batch = await newestBatch();
  const de = expectedCells(batch, 'de-DE');
  // What the German notation looks like, so the test cannot pass on English text by accident.
  expect(de.created).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
  expect(de.germination).toMatch(/^\d{1,3},\d\s%$/);

  await page.goto(`/batches?tz=${ZONE}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page).toHaveTitle(/Anmelden/);
  await expect(page.getByText(/^Melden Sie sich mit Ihrer E-Mail-Adresse und Ihrem Passwort an/)).toBeVisible();
  await signInHere(page, 'Anmelden', 'E-Mail', 'Passwort');
  await expect(page).toHaveURL((url) => url.pathname === '/batches' && url.searchParams.get('tz') === ZONE);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chargen');
  await expect(status(page)).toHaveText(/^[\d.]+ Chargen$/, { timeout: 20_000 });
  await expect(status(page)).toHaveText(`${(3000).toLocaleString('de-DE')} Chargen`);
  await expect(page.getByLabel('Suche')).toBeVisible();
  await expect(page.getByLabel('Kultur', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Zeitzone')).toHaveValue(ZONE);
  await expect(page.getByRole('button', { name: 'Letzte 30 Tage' })).toBeVisible();
  const table = page.getByRole('region', { name: 'Chargentabelle' });
  for (const header of ['Erstellt', 'Charge', 'Kultur', 'Keimrate', 'Sollwert'])
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Zusammenfassung' }).getByText('Unter Sollwert', { exact: true }),
  ).toBeVisible();

  const row = rowOf(page, batch);
  await expect(row.getByRole('cell').nth(0)).toHaveText(de.created);
  await expect(row.getByRole('cell').nth(3)).toContainText(de.germination);

  // A German plural in the status: one crop's warnings only, counted by the API.
  const crop = String(batch.crop_type);
  const { batches } = await walkApi(await signIn(DEMO));
  const warned = batches.filter((b) => b.crop_type === crop && b.warnings === true).length;
  await page.getByLabel('Kultur', { exact: true }).selectOption(crop);
  await expect(page).toHaveURL(/[?&]crop=/);
  // The box shows the URL's state: it turns checked once the URL has changed, not at the click itself.
  await page.getByLabel('Nur Warnungen').click();
  await expect(page.getByLabel('Nur Warnungen')).toBeChecked();
  await expect(status(page)).toHaveText(`${warned.toLocaleString('de-DE')} ${warned === 1 ? 'Charge' : 'Chargen'}`);

  // A target typed with the German decimal comma: applied (the URL carries a point), saved, read back as 92.5.
  await page.getByRole('button', { name: 'Sollwerte', exact: true }).click();
  const general = page.getByLabel('Allgemeiner Keimraten-Sollwert (%)');
  await expect(general).toHaveValue('90');
  await general.fill('92,5');
  await expect(page).toHaveURL(/[?&]targets=\*%3A92\.5\//);
  await general.fill('92,55x');
  await expect(page.getByText('Geben Sie eine Zahl ein.')).toBeVisible();
  await general.fill('92,5');
  await page.getByRole('button', { name: 'Sollwerte speichern' }).click();
  await expect(page.getByText('Gespeichert.', { exact: true })).toBeVisible();
  const saved = (await (await api('/api/settings/targets', { cookie: await signIn(DEMO) })).json()) as {
    targets: typeof DEFAULT_TARGETS;
  };
  expect(saved.targets.general.germination).toBe(92.5);
  // Who saved, and when in the German notation.
  const when = /\d\d\.\d\d\.\d{4}, \d\d:\d\d/.source;
  await expect(
    page.getByText(new RegExp(`^Zuletzt geändert von ${escapeRegExp(DEMO.name)}, ${when}\\.$`)),
  ).toBeVisible();

  // A preset: the URL gets its rolling range; nothing in it is written the German way.
  await page.getByRole('button', { name: 'Letzte 90 Tage' }).click();
  await expect(page).toHaveURL(/[?&]from=now-90d&to=now&/);
  const link = new URL(page.url());
  for (const [key, value] of link.searchParams) expect(value, key).not.toMatch(/\d,\d|\d\.\d\d\.\d{4}/);

  await page.reload();
  await page.getByRole('button', { name: 'Sollwerte', exact: true }).click();
  await expect(page.getByLabel('Allgemeiner Keimraten-Sollwert (%)')).toHaveValue('92,5');

  // The same link in an English browser: the same view, in English and its notation.
  const english = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London' });
  const other = await english.newPage();
  await other.goto(link.pathname + link.search);
  await expect(other).toHaveTitle(/Sign in/);
  await signInHere(other, 'Sign in', 'Email', 'Password');
  await expect(other).toHaveURL(
    (url) => url.pathname === '/batches' && url.searchParams.toString() === link.searchParams.toString(),
  );
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Batches');
  await expect(status(other)).toHaveText(/^[\d,]+ batch(es)?$/, { timeout: 20_000 });
  await expect(status(page)).toHaveText(/^[\d.]+ Charge(n)?$/);
  const germanCount = (await status(page).textContent())!.replace(/\D/g, '');
  expect((await status(other).textContent())!.replace(/\D/g, '')).toBe(germanCount);
  await expect(other.getByLabel('Warnings only')).toBeChecked();
  await expect(other.getByLabel('Crop', { exact: true })).toHaveValue(crop);
  await other.getByRole('button', { name: 'Targets', exact: true }).click();
  await expect(other.getByLabel('General germination target (%)')).toHaveValue('92.5');
  await english.close();
});

test('the language switch turns a German page Dutch and back to the browser’s language, on the sign-in page too', async ({
  page,
  browser,
}) => {
  await page.goto('/sign-in');
  await expect(page.getByLabel('Sprache')).toHaveValue('');
  await page.getByLabel('Sprache').selectOption('nl');
  await expect(page).toHaveTitle(/Aanmelden/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trayscan-batches');
  await expect(page.getByLabel('Taal')).toHaveValue('nl');
  await signInHere(page, 'Aanmelden', 'E-mail', 'Wachtwoord');
  await expect(page).toHaveURL(/\/batches\?/);
  await expect(status(page)).toHaveText(`${(3000).toLocaleString('de-DE')} batches`, { timeout: 20_000 });
  // Dutch words, German notation: the numbers follow the browser (de-DE), the words the switch.
  await expect(
    page.getByRole('region', { name: 'Batchtabel' }).getByRole('columnheader', { name: 'Kieming', exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Weergave opslaan' })).toBeVisible();

  await page.getByLabel('Taal').selectOption('');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chargen');
  await expect(page.getByLabel('Sprache')).toHaveValue('');
  await expect(status(page)).toHaveText(`${(3000).toLocaleString('de-DE')} Chargen`, { timeout: 20_000 });

  // A Dutch browser: Dutch words and Dutch notation without any switch.
  const dutch = await browser.newContext({ locale: 'nl-NL', timezoneId: 'Europe/Amsterdam' });
  const nl = await dutch.newPage();
  await nl.goto(`/batches?tz=${ZONE}`);
  await expect(nl).toHaveTitle(/Aanmelden/);
  await signInHere(nl, 'Aanmelden', 'E-mail', 'Wachtwoord');
  await expect(status(nl)).toHaveText(`${(3000).toLocaleString('nl-NL')} batches`, { timeout: 20_000 });
  const batch = await newestBatch();
  const expected = expectedCells(batch, 'nl-NL');
  const row = rowOf(nl, batch);
  await expect(row.getByRole('cell').nth(0)).toHaveText(expected.created);
  await expect(row.getByRole('cell').nth(3)).toContainText(expected.germination);
  await expect(nl.getByLabel('Taal')).toHaveValue('');
  await dutch.close();
});

test('a load stopped by the service is explained in German, with the German Retry', async ({ page, context }) => {
  await signInContext(context);
  // Slow enough that "All time" is still loading when the fault is armed (as in incomplete.spec.ts).
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 300 });
  await page.goto('/batches?tz=UTC');
  const summary = page.getByRole('region', { name: 'Zusammenfassung' });
  await expect(status(page)).toHaveText(/^[1-9][\d.]* Chargen \(unvollständig\)$/, { timeout: 15_000 });
  await expect(summary).toContainText('Wird noch geladen:');
  await sandbox('POST', '/_sandbox/inject', { kind: 'malformed-json' });
  await expect(summary.getByRole('alert')).toContainText('Die bereits geladenen Chargen bleiben erhalten.');
  await expect(summary).toContainText(/Nicht geladen: (\d\d\.\d\d\.\d{4}|alles|der gesamte Zeitraum)/);
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 0 });
  await summary.getByRole('button', { name: 'Erneut versuchen und weiterladen' }).click();
  await expect(status(page)).toHaveText(`${(3000).toLocaleString('de-DE')} Chargen`, { timeout: 20_000 });
});
