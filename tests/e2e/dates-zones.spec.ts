import { chromium, expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium';
import { APP_URL, EDGE, sandbox, signIn, walkApi } from './support';

const status = (page: Page) => page.getByRole('status').first();
const from = (page: Page) => page.getByLabel('From', { exact: true });
const count = async (page: Page) => Number((await status(page).textContent())!.replace(/\D/g, ''));

/** Batches the API holds between two instants (both inclusive), by the cursor walk: the reference count. */
async function apiCount(start: string, end: string) {
  return (await walkApi(await signIn(EDGE), { start_date: start, end_date: end })).batches.length;
}

/** A signed-in page of its own context (zone, locale), with every stream request it starts recorded. */
async function openPage(browser: Browser, path: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL: APP_URL, ...options });
  const [name, value] = (await signIn(EDGE)).split(/=(.*)/s) as [string, string];
  await context.addCookies([{ name, value, url: APP_URL }]);
  const page = await context.newPage();
  const streams: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/batches/stream')) streams.push(r.url());
  });
  await page.goto(path);
  return { page, streams };
}

/**
 * Chromium orders its date field by the language of the browser process (LANGUAGE), not by a context's
 * `locale`: a browser of its own per language gives the day-first German field.
 */
async function browserIn(language: string, lang: string) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    env: { ...process.env, LANGUAGE: language, LANG: lang },
  });
}

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

// The page speaks the browser's language: its words for the status, the All time preset and the From field.
const ENGLISH = { batches: (n: number) => `${n} batch${n === 1 ? '' : 'es'}`, allTime: 'All time', from: 'From' };
const GERMAN = {
  batches: (n: number) => `${n} ${n === 1 ? 'Charge' : 'Chargen'}`,
  allTime: 'Gesamter Zeitraum',
  from: 'Von',
};

for (const [locale, language, lang, keys, words] of [
  ['en-US', 'en_US', 'en_US.UTF-8', '05012025', ENGLISH], // month first
  ['de-DE', 'de', 'de_DE.UTF-8', '01.05.2025', GERMAN], // day first, with the dots a German types
] as const) {
  test(`${locale}: typing a day digit by digit changes nothing until the day is whole`, async () => {
    const browser = await browserIn(language, lang);
    try {
      const start = '/batches?from=2025-01-01&to=2025-12-31&tz=UTC';
      const { page, streams } = await openPage(browser, start, { locale, timezoneId: 'UTC' });
      const fromField = page.getByLabel(words.from, { exact: true });
      await expect(status(page)).toHaveText(words.batches(22));
      const url = page.url();
      const loads = streams.length;
      await page.getByRole('button', { name: words.allTime }).focus();
      await page.keyboard.press('Tab');
      await expect(fromField).toBeFocused();
      for (const key of keys.slice(0, -1)) {
        await page.keyboard.press(key);
        expect(page.url(), `after ${key}`).toBe(url);
        expect(streams.length, `after ${key}`).toBe(loads);
        await expect(status(page)).toHaveText(words.batches(22));
      }
      // The year's fourth digit makes the day whole: only now does the range change, once.
      await page.keyboard.press(keys.at(-1)!);
      await expect(page).toHaveURL(`${APP_URL}/batches?from=2025-05-01&to=2025-12-31&tz=UTC`);
      const expected = await apiCount('2025-05-01T00:00:00Z', '2025-12-31T23:59:59.999999Z');
      await expect(status(page)).toHaveText(words.batches(expected));
      expect(streams.length).toBe(loads + 1);
      await expect(fromField).toHaveValue('2025-05-01');
    } finally {
      await browser.close();
    }
  });
}

test('an impossible or too early day is explained beside the field; the rows and the URL stay', async () => {
  const browser = await browserIn('en_US', 'en_US.UTF-8');
  try {
    const { page, streams } = await openPage(browser, '/batches?from=2025-01-01&to=2025-12-31&tz=UTC', {
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    await expect(status(page)).toHaveText('22 batches');
    const url = page.url();
    const loads = streams.length;
    const field = from(page);
    const attempts: [string, string[], RegExp][] = [
      ['02292025', ['Enter'], /Not a complete, real day/], // 2025 is no leap year
      ['0101185', ['Enter'], /Year 0185: type all four digits/], // a year still being typed is not taken
      // Leaving: the first Tab from the year reaches the field's calendar button, the second leaves the field.
      ['02302025', ['Tab', 'Tab'], /Not a complete, real day/],
    ];
    for (const [keys, leave, help] of attempts) {
      await field.focus();
      await page.keyboard.press('Escape'); // the URL's day back in every part
      await page.getByRole('button', { name: 'All time' }).focus();
      await page.keyboard.press('Tab');
      await page.keyboard.type(keys);
      for (const key of leave) await page.keyboard.press(key);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(help);
      expect(page.url(), keys).toBe(url);
      expect(streams.length, keys).toBe(loads);
      await expect(status(page)).toHaveText('22 batches');
      await expect(page.getByRole('row')).not.toHaveCount(0);
      await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    }
    await expect(field).not.toBeFocused();
    // Escape puts the URL's day back; a whole day then goes in as usual.
    await field.focus();
    await page.keyboard.press('Escape');
    await expect(field).toHaveValue('2025-01-01');
    await expect(field).not.toHaveAttribute('aria-invalid');
  } finally {
    await browser.close();
  }
});

test('the same link shows the same batches in Amsterdam and in Los Angeles', async ({ browser }) => {
  // 1 January 2025 in Amsterdam is 2024-12-31T23:00Z to 2025-01-01T22:59:59.999999Z (by hand, not by the app's code);
  // the edge organisation has batches at 00:00Z and 23:59:59Z that day, so a Los Angeles day would count otherwise.
  const expected = await apiCount('2024-12-31T23:00:00Z', '2025-01-01T22:59:59.999999Z');
  const losAngelesDay = await apiCount('2025-01-01T08:00:00Z', '2025-01-02T07:59:59.999999Z');
  expect(losAngelesDay).not.toBe(expected);
  const link = '/batches?from=2025-01-01&to=2025-01-01&tz=Europe/Amsterdam';
  for (const timezoneId of ['Europe/Amsterdam', 'America/Los_Angeles']) {
    const { page } = await openPage(browser, link, { timezoneId });
    await expect(status(page), timezoneId).toHaveText(`${expected} batch${expected === 1 ? '' : 'es'}`);
    expect(page.url()).toBe(APP_URL + link);
    await page.context().close();
  }
});

test('a link without a zone or range, or with the old tz=local, gets the viewer’s zone and All time in place (no new history entry)', async ({
  browser,
}) => {
  for (const [path, after] of [
    ['/batches', '/batches?from=all&to=now&tz=America/Los_Angeles'],
    ['/batches?q=tray&tz=local', '/batches?from=all&to=now&q=tray&tz=America/Los_Angeles'],
    ['/batches?tz=utc&q=tray', '/batches?from=all&to=now&tz=UTC&q=tray'],
  ]) {
    const { page } = await openPage(browser, '/api/health', { timezoneId: 'America/Los_Angeles' });
    const before = await page.evaluate(() => history.length);
    await page.goto(path!);
    await expect(page).toHaveURL(APP_URL + after);
    await expect(status(page)).toHaveText(/^\d+ batch(es)?$/);
    expect(await page.evaluate(() => history.length), path).toBe(before + 1);
    await page.context().close();
  }
});

test('the zone control: the browser’s zone first, a zone picked by typing, day boundaries following it', async ({
  browser,
}) => {
  const { page } = await openPage(browser, '/batches?from=2025-01-01&to=2025-01-01&tz=UTC', {
    timezoneId: 'America/Los_Angeles',
  });
  await expect(status(page)).toHaveText('3 batches');
  const options = page.locator('#zone-choices option');
  await expect(options.nth(0)).toHaveAttribute('value', 'America/Los_Angeles');
  await expect(options.nth(0)).toHaveAttribute('label', /browser/);
  await expect(options.nth(1)).toHaveAttribute('value', 'UTC');
  expect(await options.count()).toBeGreaterThan(300);

  const zone = page.getByLabel('Time zone');
  await zone.click();
  await page.keyboard.type('Mars/Base');
  await page.keyboard.press('Enter');
  await expect(zone).toHaveAccessibleDescription(/Not a time zone/);
  await expect(page).toHaveURL(/tz=UTC$/);
  await page.keyboard.press('Escape'); // the URL's zone back
  await expect(zone).toHaveValue('UTC');
  await zone.blur();

  await zone.click(); // selects what is there: typing replaces it
  await page.keyboard.type('Asia/Tokyo');
  await expect(page).toHaveURL(`${APP_URL}/batches?from=2025-01-01&to=2025-01-01&tz=Asia/Tokyo`);
  await expect(zone).not.toHaveAttribute('aria-invalid');
  // 1 January 2025 in Tokyo: 2024-12-31T15:00Z to 2025-01-01T14:59:59.999999Z.
  const expected = await apiCount('2024-12-31T15:00:00Z', '2025-01-01T14:59:59.999999Z');
  expect(expected).not.toBe(3);
  await expect(status(page)).toHaveText(`${expected} batch${expected === 1 ? '' : 'es'}`);
  expect(await count(page)).toBe(expected);
});
