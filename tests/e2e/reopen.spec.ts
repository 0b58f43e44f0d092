import { expect, test, type Page } from '@playwright/test';
import { signInContext } from './signed-in';
import {
  APP_URL,
  DEMO,
  OTHER,
  api,
  type Credentials,
  cachedEntries,
  exportFrom,
  sandbox,
  status,
  walkApi,
  type ApiBatch,
} from './support';

// Issue 16, target 2: a range loaded a moment ago reopens without the service (within the tab from React
// Query, after a reload or in a new tab from the browser's encrypted cache), and is then checked against it.

const ALL = '/batches?tz=UTC';
const asOf = (page: Page) => page.getByTestId('as-of');
const sandboxBatchRequests = async () =>
  ((await sandbox('GET', '/_sandbox/stats')) as { batchRequests: number }).batchRequests;

test.afterEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
});

/** Every text the explorer's status line shows from the page's start, as the person would see it frame by frame. */
async function recordStatus(page: Page) {
  await page.addInitScript(() => {
    const seen: (string | null)[] = [];
    (window as unknown as { statusSeen: (string | null)[] }).statusSeen = seen;
    const look = () => {
      const text = document.querySelector('main [role=status]')?.textContent ?? null;
      if (text !== seen.at(-1)) seen.push(text);
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { statusSeen: (string | null)[] }).statusSeen.filter((t) => t !== null) as string[],
    );
}

/** Another session in this browser (the old cookie dropped, no sign-out), then the page again; the stream requests from then on. */
async function reloadAs(page: Page, credentials: Credentials): Promise<string[]> {
  await page.context().clearCookies();
  await signInContext(page.context(), credentials);
  const streams: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/batches/stream')) streams.push(r.url());
  });
  await page.reload();
  return streams;
}

const countOf = (text: string) => Number(text.replace(/\D/g, ''));

/** Streams a range from the app as a script would (the batches the page will be shown). */
async function batchesOf(cookie: string): Promise<ApiBatch[]> {
  return (await walkApi(cookie)).batches;
}

test('within a tab, Back/Forward, presets and filters reopen ranges loaded a moment ago without asking the service', async ({
  page,
  context,
}) => {
  await signInContext(context, DEMO);
  const streams: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/batches/stream')) streams.push(r.url());
  });
  await page.goto(ALL);
  await expect(status(page)).toHaveText('3,000 batches');
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(status(page)).toHaveText(/^[\d,]+ batch(es)?$/);
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await expect(status(page)).toHaveText(/^[\d,]+ batch(es)?$/);
  expect(streams).toHaveLength(3);
  const asked = await sandboxBatchRequests();

  await page.goBack();
  await page.goBack();
  await expect(status(page)).toHaveText('3,000 batches');
  await page.goForward();
  await expect(page).toHaveURL(/from=/);
  await page.getByRole('button', { name: 'All time' }).click();
  await expect(status(page)).toHaveText('3,000 batches');
  await page.getByLabel('Warnings only').click();
  await expect(status(page)).not.toHaveText('3,000 batches');
  await page.getByLabel('Warnings only').click();
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await expect(status(page)).toHaveText(/^[\d,]+ batch(es)?$/);
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(status(page)).toHaveText(/^[\d,]+ batch(es)?$/);
  expect(streams).toHaveLength(3);
  expect(await sandboxBatchRequests()).toBe(asked);
  await expect(asOf(page)).toHaveCount(0);
});

test('a reload reopens the range from the cache before the service answers, then merges new, changed and vanished batches without a flicker', async ({
  page,
  context,
}) => {
  const cookie = await signInContext(context, DEMO);
  const all = await batchesOf(cookie);
  const [renamed, gone, model] = [all[10]!, all[20]!, all[30]!];
  // The batch that will vanish, under a name of its own (generated names repeat) to look for it afterwards.
  await sandbox('POST', '/_sandbox/edit', {
    clientId: DEMO.clientId,
    change: [{ batch_id: gone.batch_id, set: { batch_name: 'Vanishes while away' } }],
  });
  await page.goto(ALL);
  await expect(status(page)).toHaveText('3,000 batches');
  await expect.poll(() => cachedEntries(page)).toEqual([expect.objectContaining({ count: 3000 })]);

  // The service's data moves on: one batch renamed, one gone, one new.
  await sandbox('POST', '/_sandbox/edit', {
    clientId: DEMO.clientId,
    change: [{ batch_id: renamed.batch_id, set: { batch_name: 'Renamed while away' } }],
    remove: [gone.batch_id],
    add: [{ ...model, batch_id: 'added-while-away', batch_name: 'Added while away' }],
  });
  // A slow service: every page of the check takes 0.8 s (the whole check, several rounds of pages).
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 800 });
  const seen = await recordStatus(page);
  // Streams the page has received whole (a resource timing entry is made once the response has ended).
  const finished = () =>
    page.evaluate(
      () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/batches/stream')).length,
    );

  await page.reload();
  // The copy, at once: every row, "as of" its time, while the stream has not answered.
  await expect(status(page)).toHaveText('3,000 batches');
  await expect(asOf(page)).toHaveText(/^As of \d\d:\d\d; checking for changes…$/);
  await expect(page.locator('tbody tr').first()).toBeVisible();
  expect(await finished()).toBe(0);
  expect(await page.getByText('Renamed while away').count()).toBe(0);

  // The check, merged: the new batch and the new name in, the vanished batch out; "as of" goes.
  await expect(asOf(page)).toHaveCount(0, { timeout: 30_000 });
  await expect(status(page)).toHaveText('3,000 batches');
  await expect.poll(finished).toBe(1);
  // From the first rows on (before them, while the cache is read, the page shows the skeleton as any load does).
  const statuses = await seen();
  const texts = statuses.slice(statuses.indexOf('3,000 batches'));
  // Never an incomplete or empty table, never a batch twice: 3,000 (the copy), at most 3,001 while both the new
  // batch and the vanished one are shown, then 3,000.
  expect(
    texts.every((t) => /^[\d,]+ batches$/.test(t)),
    texts.join(' | '),
  ).toBe(true);
  expect(texts[0]).toBe('3,000 batches');
  expect(new Set(texts.map(countOf)).size).toBeLessThanOrEqual(2);
  expect(texts.map(countOf).every((c) => c === 3000 || c === 3001)).toBe(true);
  for (const [name, count] of [
    ['Renamed while away', '1 batch'],
    ['Added while away', '1 batch'],
    ['Vanishes while away', '0 batches'],
  ]) {
    await page.getByLabel('Search').fill(name!);
    await expect(status(page)).toHaveText(count!);
  }
  // The merged range is kept for the next time.
  await expect.poll(async () => (await cachedEntries(page))[0]?.count).toBe(3000);
});

test('when the check fails, the cached rows stay and the page says they are as of then and that refreshing failed', async ({
  page,
  context,
}) => {
  await signInContext(context, DEMO);
  await page.goto(ALL);
  await expect(status(page)).toHaveText('3,000 batches');
  await expect.poll(async () => (await cachedEntries(page)).length).toBe(1);
  await sandbox('POST', '/_sandbox/faults', { outage: true, retryAfterS: 1 });
  await page.reload();
  // The server retries the service first, within its deadline.
  await expect(asOf(page)).toContainText(/As of \d\d:\d\d: refreshing failed, so these batches may be out of date\./, {
    timeout: 20_000,
  });
  await expect(asOf(page)).toContainText('unavailable');
  await expect(status(page)).toHaveText('3,000 batches');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  // On paper too (the status line is not printed).
  await page.emulateMedia({ media: 'print' });
  await expect(
    page
      .getByText(/^As of \d\d:\d\d: refreshing failed, so these batches may be out of date\.$/)
      .filter({ visible: true }),
  ).toHaveCount(1);
  await page.emulateMedia({ media: 'screen' });
  // An export of this view says "as of" in its name and first line.
  const file = await exportFrom(page, 'CSV (API fields)');
  expect(file.name).toMatch(/-api-fields-AS-OF-\d{4}\.csv$/);
  expect(file.bytes.toString('utf8')).toMatch(
    /^"?AS OF \d{4}-\d\d-\d\d \d\d:\d\d UTC: 3000 batches as loaded then, not yet refreshed/,
  );
  await sandbox('POST', '/_sandbox/faults', { outage: false });
  await asOf(page).getByRole('button', { name: 'Refresh' }).click();
  await expect(asOf(page)).toHaveCount(0);
  await expect(status(page)).toHaveText('3,000 batches');
});

test('sign-out wipes the cache; a revoked session cannot read it; a new session drops what it cannot open', async ({
  page,
  context,
}) => {
  const cookie = await signInContext(context, DEMO);
  await page.goto(ALL);
  await expect(status(page)).toHaveText('3,000 batches');
  await expect.poll(async () => (await cachedEntries(page)).length).toBe(1);
  const [before] = await cachedEntries(page);

  // Revoked elsewhere: the key can no longer be fetched.
  expect((await api('/api/session', { method: 'DELETE', cookie, headers: { origin: APP_URL } })).status).toBe(204);
  expect(await page.evaluate(async () => (await fetch('/api/session/cache-key')).status)).toBe(401);

  // A new session of the same organisation: a new key; the old entry is dropped unread and the range loads from the service.
  const streams = await reloadAs(page, DEMO);
  await expect(status(page)).toHaveText('3,000 batches');
  await expect(asOf(page)).toHaveCount(0);
  expect(streams).toHaveLength(1);
  await expect
    .poll(async () => (await cachedEntries(page)).map((e) => e.keyId))
    .toEqual([expect.not.stringMatching(before!.keyId)]);

  // Sign-out: the database is gone before the sign-in page shows.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect(await cachedEntries(page)).toEqual([]);
});

test('an organisation never sees the entries of another', async ({ page, context }) => {
  await signInContext(context, DEMO);
  await page.goto(ALL);
  await expect(status(page)).toHaveText('3,000 batches');
  await expect.poll(async () => (await cachedEntries(page)).length).toBe(1);

  const streams = await reloadAs(page, OTHER);
  await expect(status(page)).toHaveText('375 batches');
  await expect(asOf(page)).toHaveCount(0);
  expect(streams).toHaveLength(1);
  // Both kept, each under its organisation's scope.
  await expect.poll(async () => new Set((await cachedEntries(page)).map((e) => e.scope)).size).toBe(2);
});
