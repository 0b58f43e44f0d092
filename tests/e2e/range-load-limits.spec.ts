import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../helpers/postgres-server';
import { startApp, type AppInstance } from './app-instance';
import { DEMO, sandbox, status } from './support';

/**
 * A session runs a bounded number of range loads at once (RANGE_LOADS_PER_SESSION, its tabs, windows and
 * exports together): one more is 429 with Retry-After, and the page says so in the reader's words with the
 * wait and a Retry that loads the range once a turn is free. An app of its own allowing one load a session,
 * refused at once (no wait), so that the page meets the limit while the test holds one load open.
 */
let app: AppInstance;
let dir: string;
test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsb-e2e-load-limits-'));
  app = await startApp(await freePort(), {
    SETTINGS_DATA_DIR: dir,
    RANGE_LOADS_PER_SESSION: '1',
    RANGE_LOAD_WAIT_S: '0',
  });
});
test.afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a range that cannot start while the session loads another says why and when to try again; Retry then loads it', async ({
  page,
}) => {
  await sandbox('POST', '/_sandbox/reset');
  await page.goto(`${app.url}/batches`);
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A fresh server: its first sign-in and page load its code and open its settings database.
  await expect(page).toHaveURL(/\/batches/, { timeout: 30_000 });
  await expect(status(page)).toHaveText(/^[\d,]+ batches$/, { timeout: 30_000 });

  // Another tab of the same session loads a range whose first page never comes: it holds the session's one load.
  const cookie = (await page.context().cookies(app.url)).map((c) => `${c.name}=${c.value}`).join('; ');
  const before = (await sandbox('GET', '/_sandbox/stats')).faultsServed as number;
  await sandbox('POST', '/_sandbox/inject', { kind: 'hang', count: 1, target: 'batches' });
  const otherTab = new AbortController();
  const held = fetch(`${app.url}/api/batches/stream`, { headers: { cookie }, signal: otherTab.signal }).catch(
    () => null,
  );
  await expect.poll(async () => (await sandbox('GET', '/_sandbox/stats')).faultsServed).toBeGreaterThan(before);

  await page.getByRole('button', { name: 'Last 7 days' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Too many date ranges' });
  await expect(alert).toContainText('Too many date ranges are loading at once in your tabs and windows.');
  await expect(alert).toContainText('Try again in 1 s, once one of them has finished.');
  await expect(status(page)).toHaveText(/\(incomplete\)$/);

  // The other tab is closed: its turn comes back, and Retry loads the range.
  otherTab.abort();
  await held;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(status(page)).toHaveText(/^[\d,]+ batch(es)?$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Too many date ranges' })).toHaveCount(0);
});
