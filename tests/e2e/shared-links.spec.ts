import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { SavedView, SavedViewList } from '../../lib/contract/views';
import { signInContext } from './signed-in';
import {
  api,
  APP_URL,
  asBrowserShows,
  browserPattern,
  deleteAllViews,
  sandbox,
  signIn,
  status,
  walkApi,
} from './support';

/**
 * A link must open what it says: every preset and All time written into the URL as a rolling range, whatever
 * the organisation's default view; the default view only for a bare /batches, and then said.
 */

const DAY = 86_400_000;
/** The UTC calendar day `n` days after the day of `ms`. */
const utcDay = (ms: number, n = 0) => new Date(ms + n * DAY).toISOString().slice(0, 10);
/** Days as a person reads them in an en-GB browser, worked out with Intl here rather than by the app. */
const GB = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
const gbDays = (from: string, to: string) =>
  GB.formatRange(Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`));

/** How many batches the API holds on the UTC days from..to (both whole), by its own cursor walk; all without days. */
async function apiCount(cookie: string, from?: string, to?: string): Promise<number> {
  const query: Record<string, string> = {};
  if (from) query.start_date = `${from}T00:00:00Z`;
  if (to) query.end_date = `${to}T23:59:59.999999Z`;
  return (await walkApi(cookie, query)).batches.length;
}

const batches = (n: number) => `${n.toLocaleString('en-GB')} batch${n === 1 ? '' : 'es'}`;

/** Saves a view for the demo organisation over the API, as a colleague would have. */
async function saveView(name: string, query: string, isDefault: boolean): Promise<SavedView> {
  const response = await api('/api/settings/views', {
    method: 'POST',
    cookie: await signIn(),
    json: { name, query, isDefault },
    headers: { origin: APP_URL },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as SavedView;
}

async function signedInContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: APP_URL, timezoneId: 'UTC', ...options });
  await signInContext(context);
  return context;
}

const notice = (page: Page) => page.getByRole('note').filter({ hasText: 'default view' });
/** The line under the range's controls (the fieldset's legend names it in the reader's language). */
const rangeShown = (page: Page) =>
  page
    .locator('fieldset', { has: page.getByRole('group', { name: /^(Date range presets|Zeitraum-Vorgaben)$/ }) })
    .locator('p');

test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await deleteAllViews();
});
test.afterEach(deleteAllViews);

test('All time and every preset reopen from their link, in this browser and a colleague’s, whatever the default view', async ({
  page,
  context,
  browser,
}) => {
  const cookie = await signInContext(context);
  await saveView('Tomato only', 'crop=Tomato&tz=UTC', true);
  const colleague = await signedInContext(browser);
  const theirs = await colleague.newPage();

  // All time's link of old (`?tz=…`) is no bare URL: every batch, and the range written in.
  await page.goto('/batches?tz=UTC');
  await expect(page).toHaveURL(`${APP_URL}/batches?from=all&to=now&tz=UTC`);
  const everything = await apiCount(cookie);
  await expect(status(page)).toHaveText(batches(everything), { timeout: 20_000 });
  expect(everything).toBe(3000);

  const today = utcDay(Date.now());
  const presets: [string, string, string | undefined][] = [
    ['Last 7 days', 'now-7d', utcDay(Date.now(), -6)],
    ['Last 30 days', 'now-30d', utcDay(Date.now(), -29)],
    ['Last 90 days', 'now-90d', utcDay(Date.now(), -89)],
    ['This year', 'now/y', `${today.slice(0, 4)}-01-01`],
    ['All time', 'all', undefined],
  ];
  for (const [name, from, first] of presets) {
    await page.getByRole('button', { name, exact: true }).click();
    const link = `${APP_URL}/batches?from=${from}&to=now&tz=UTC`;
    await expect(page, name).toHaveURL(link);
    const expected = first ? await apiCount(cookie, first, today) : everything;
    const label = first
      ? `${name}: ${gbDays(first, today)}`
      : `All time: every batch, up to today (${GB.format(Date.now())})`;
    for (const [who, shown] of [
      ['me', page],
      ['me, reloaded', page],
      ['a colleague', theirs],
    ] as const) {
      if (who === 'me, reloaded') await page.reload();
      if (who === 'a colleague') await theirs.goto(link);
      await expect(shown, `${name}, ${who}`).toHaveURL(link);
      await expect(status(shown), `${name}, ${who}`).toHaveText(batches(expected), { timeout: 20_000 });
      await expect(shown.getByRole('button', { name, exact: true }), `${name}, ${who}`).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expect(rangeShown(shown), `${name}, ${who}`).toHaveText(asBrowserShows(label));
      await expect(shown.getByLabel('Crop', { exact: true })).toHaveValue('');
      await expect(notice(shown)).toHaveCount(0);
    }
  }
  await colleague.close();
});

test('a saved view made from Last 90 days shows the last 90 days of the day it is opened, a month later too', async ({
  page,
  context,
  browser,
}) => {
  const cookie = await signInContext(context);
  await page.goto('/batches?from=all&to=now&tz=UTC');
  await page.getByRole('button', { name: 'Last 90 days' }).click();
  await page.getByRole('button', { name: 'Save view' }).click();
  await page.getByLabel('View name').fill('Last quarter');
  await page.getByRole('form', { name: 'Save view' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved “Last quarter” for your organisation.')).toBeVisible();
  const { views } = (await (await api('/api/settings/views', { cookie })).json()) as SavedViewList;
  expect(views.map((v) => v.query)).toEqual(['from=now-90d&to=now&tz=UTC']);

  // A colleague opens it from the list a month later (the browser's clock moved on, the link did not).
  const later = Date.now() + 31 * DAY;
  const colleague = await signedInContext(browser);
  const theirs = await colleague.newPage();
  await theirs.clock.install({ time: later });
  await theirs.goto('/batches?from=now-7d&to=now&tz=UTC');
  await theirs.getByRole('button', { name: 'Saved views' }).click();
  await theirs.getByRole('region', { name: 'Saved views' }).getByRole('link', { name: 'Last quarter' }).click();
  await expect(theirs).toHaveURL(`${APP_URL}/batches?from=now-90d&to=now&tz=UTC`);
  const [from, to] = [utcDay(later, -89), utcDay(later)];
  await expect(theirs.getByLabel('From', { exact: true })).toHaveValue(from);
  await expect(theirs.getByLabel('To', { exact: true })).toHaveValue(to);
  await expect(rangeShown(theirs)).toHaveText(asBrowserShows(`Last 90 days: ${gbDays(from, to)}`));
  await expect(status(theirs)).toHaveText(batches(await apiCount(cookie, from, to)), { timeout: 20_000 });
  await colleague.close();
});

test('Compare with works on a rolling range: the same span of the period before, up to the same time of day', async ({
  page,
  context,
}) => {
  const cookie = await signInContext(context);
  await page.goto('/batches?from=now-30d&to=now&tz=UTC&compare=previous');
  const [from, to] = [utcDay(Date.now(), -29), utcDay(Date.now())];
  await expect(status(page)).toHaveText(batches(await apiCount(cookie, from, to)), { timeout: 20_000 });
  const summary = page.getByRole('region', { name: 'Summary' });
  // The 30 days before, the last of them up to now's time of day (the range itself ends now).
  const before = browserPattern(gbDays(utcDay(Date.now(), -59), utcDay(Date.now(), -30)));
  await expect(summary).toContainText(
    new RegExp(`Changes against ${before}, up to \\d\\d:\\d\\d \\(previous period\\)`),
    { timeout: 20_000 },
  );
  await expect(
    summary.locator('div', { has: page.getByText('Batches', { exact: true }) }).locator('dd small'),
  ).toHaveText(/^([+\u2212]|±)[\d.]+% \(was [\d,]+\)$/);
});

test('a page left open over midnight moves a rolling range to the new day', async ({ browser }) => {
  const context = await signedInContext(browser);
  const page = await context.newPage();
  const eve = Date.parse(`${utcDay(Date.now(), -1)}T23:59:00Z`);
  await page.clock.install({ time: eve });
  await page.goto('/batches?from=now-7d&to=now&tz=UTC');
  await expect(rangeShown(page)).toHaveText(asBrowserShows(`Last 7 days: ${gbDays(utcDay(eve, -6), utcDay(eve))}`));
  await page.clock.fastForward('02:00');
  await expect(rangeShown(page)).toHaveText(asBrowserShows(`Last 7 days: ${gbDays(utcDay(eve, -5), utcDay(eve, 1))}`));
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(utcDay(eve, 1));
  await expect(status(page)).toHaveText(batches(await apiCount(await signIn(), utcDay(eve, -5), utcDay(eve, 1))), {
    timeout: 20_000,
  });
  await context.close();
});

test('a bare /batches opens the default view and says so, with the way to every batch; its link does not say it again', async ({
  page,
  context,
  browser,
}) => {
  await signInContext(context);
  await saveView('Tomato, last 90 days', 'from=now-90d&to=now&crop=Tomato&tz=UTC', true);
  const opened = `${APP_URL}/batches?from=now-90d&to=now&crop=Tomato&tz=UTC`;

  await page.goto('/batches');
  await expect(page).toHaveURL(opened);
  await expect(notice(page)).toContainText('Opened your organisation’s default view “Tomato, last 90 days”.');
  await expect(page.getByLabel('Crop', { exact: true })).toHaveValue('Tomato');
  await expect(status(page)).toHaveText(/^[\d,]+ batch(es)?$/, { timeout: 20_000 });

  // The view's own link, reloaded or shared, is the view and nothing more.
  await page.reload();
  await expect(page.getByLabel('Crop', { exact: true })).toHaveValue('Tomato');
  await expect(notice(page)).toHaveCount(0);
  const colleague = await signedInContext(browser);
  const theirs = await colleague.newPage();
  await theirs.goto(opened);
  await expect(theirs.getByLabel('Crop', { exact: true })).toHaveValue('Tomato');
  await expect(notice(theirs)).toHaveCount(0);
  // Nor does a link that names the one-shot parameter itself, for another view.
  await theirs.goto('/batches?from=all&to=now&crop=Lettuce&tz=UTC&opened=default');
  await expect(theirs).toHaveURL(`${APP_URL}/batches?from=all&to=now&crop=Lettuce&tz=UTC`);
  await expect(theirs.getByLabel('Crop', { exact: true })).toHaveValue('Lettuce');
  await expect(notice(theirs)).toHaveCount(0);
  await colleague.close();

  // The way back: every batch, All time, no filters, in the same zone.
  await page.goto('/batches');
  await expect(notice(page)).toBeVisible();
  await notice(page).getByRole('link', { name: 'Show all batches, unfiltered' }).click();
  await expect(page).toHaveURL(`${APP_URL}/batches?from=all&to=now&tz=UTC`);
  await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
  await expect(page.getByLabel('Crop', { exact: true })).toHaveValue('');
  await expect(notice(page)).toHaveCount(0);
  // Back is the default view again, as any change of the view.
  await page.goBack();
  await expect(page).toHaveURL(opened);

  // Dismissed, or the view changed: the notice goes.
  await page.goto('/batches');
  await notice(page).getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice(page)).toHaveCount(0);
  await page.goto('/batches');
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(notice(page)).toHaveCount(0);
});

test('older links of days open the same days as before, with the range written in', async ({ page, context }) => {
  const cookie = await signInContext(context);
  await saveView('Tomato only', 'crop=Tomato&tz=UTC', true);
  const [from, to] = [utcDay(Date.now(), -120), utcDay(Date.now(), -91)];

  await page.goto(`/batches?from=${from}&to=${to}&tz=UTC`);
  await expect(page).toHaveURL(`${APP_URL}/batches?from=${from}&to=${to}&tz=UTC`);
  await expect(status(page)).toHaveText(batches(await apiCount(cookie, from, to)), { timeout: 20_000 });
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(from);
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(to);
  await expect(
    page.getByRole('group', { name: 'Date range presets' }).getByRole('button', { pressed: true }),
  ).toHaveCount(0);
  await expect(rangeShown(page)).toBeHidden();

  // A From alone (up to now) and the zone alone (All time), as the explorer wrote them before.
  await page.goto(`/batches?from=${from}&tz=UTC`);
  await expect(page).toHaveURL(`${APP_URL}/batches?from=${from}&to=now&tz=UTC`);
  await expect(status(page)).toHaveText(batches(await apiCount(cookie, from, utcDay(Date.now()))), { timeout: 20_000 });
  await page.goto(`/batches?tz=UTC&crop=Lettuce`);
  await expect(page).toHaveURL(`${APP_URL}/batches?from=all&to=now&tz=UTC&crop=Lettuce`);
  await expect(page.getByLabel('Crop', { exact: true })).toHaveValue('Lettuce');
  await expect(page.getByRole('button', { name: 'All time' })).toHaveAttribute('aria-pressed', 'true');
});

/** The reader's words for the messages below, in three notations. */
const READERS = [
  {
    locale: 'en-GB',
    order: 'From (31 Mar 2026) is after To (1 Mar 2026)',
    moved: 'To moved to 10 Jul 2025: the range stays 31 days long.',
    movedBack: 'From moved to 11 Mar 2025: the range stays 31 days long.',
    day: /\d{1,2} [A-Z][a-z]{2,3} \d{4}/,
    notLoaded: 'Not loaded:',
  },
  {
    locale: 'en-US',
    order: 'From (Mar 31, 2026) is after To (Mar 1, 2026)',
    moved: 'To moved to Jul 10, 2025: the range stays 31 days long.',
    movedBack: 'From moved to Mar 11, 2025: the range stays 31 days long.',
    day: /[A-Z][a-z]{2,3} \d{1,2}, \d{4}/,
    notLoaded: 'Not loaded:',
  },
  {
    locale: 'de-DE',
    order: '„Von“ (31.03.2026) liegt nach „Bis“ (01.03.2026)',
    moved: '„Bis“ auf 10.07.2025 verschoben: Der Zeitraum bleibt 31 Tage lang.',
    movedBack: '„Von“ auf 11.03.2025 verschoben: Der Zeitraum bleibt 31 Tage lang.',
    day: /\d{2}\.\d{2}\.\d{4}/,
    notLoaded: 'Nicht geladen:',
  },
];

for (const reader of READERS) {
  test(`${reader.locale}: the range's messages write days as the reader does, and a range moves later in one change`, async ({
    browser,
  }) => {
    const context = await signedInContext(browser, { locale: reader.locale });
    const page = await context.newPage();
    const alert = page.getByRole('main').getByRole('alert');

    await page.goto('/batches?from=2026-03-31&to=2026-03-01&tz=UTC');
    await expect(alert).toContainText(reader.order);

    // From past To: To follows, keeping the range's 31 days, and says so; the same the other way.
    await page.goto('/batches?from=2025-05-01&to=2025-05-31&tz=UTC');
    await expect(status(page)).toHaveText(/\d/);
    const [fromField, toField] = [page.locator('input[type=date]').nth(0), page.locator('input[type=date]').nth(1)];
    await fromField.fill('2025-06-10');
    await expect(page).toHaveURL(`${APP_URL}/batches?from=2025-06-10&to=2025-07-10&tz=UTC`);
    await expect(toField).toHaveValue('2025-07-10');
    await expect(fromField).not.toHaveAttribute('aria-invalid');
    await expect(rangeShown(page)).toHaveText(reader.moved);
    await toField.fill('2025-04-10');
    await expect(page).toHaveURL(`${APP_URL}/batches?from=2025-03-11&to=2025-04-10&tz=UTC`);
    await expect(rangeShown(page)).toHaveText(reader.movedBack);
    await page.goBack();
    await expect(page).toHaveURL(`${APP_URL}/batches?from=2025-06-10&to=2025-07-10&tz=UTC`);

    // What did not load, named by days in the reader's notation, never as ISO days.
    await sandbox('POST', '/_sandbox/faults', { latencyMs: 300 });
    // (A range with days of its own: All time's open ends may be named without any.)
    await page.goto(`/batches?from=${utcDay(Date.now(), -700)}&to=now&tz=UTC`);
    // Some batches in (their parts then named), then the service fails the next page.
    await expect(status(page)).toHaveText(/^[1-9][\d,.]* \S+ \(/);
    await sandbox('POST', '/_sandbox/inject', { kind: 'malformed-json' });
    const note = page.getByText(reader.notLoaded).first();
    await expect(note).toBeVisible({ timeout: 20_000 });
    const sentence = (await note.textContent())!;
    expect(sentence).toMatch(reader.day);
    expect(sentence).not.toMatch(/\d{4}-\d\d-\d\d/);
    await context.close();
  });
}
