import { expect, test, type Page } from '@playwright/test';
import { readCsv } from '../helpers/csv';
import { readXlsx } from '../helpers/xlsx';
import { signInContext } from './signed-in';
import { exportFrom, sandbox } from './support';

/** The explorer's own status line (the charts add live regions of their own further down). */
const status = (page: Page) => page.getByRole('status').first();
const summary = (page: Page) => page.getByRole('region', { name: 'Summary' });
const charts = (page: Page) => page.getByRole('region', { name: 'Charts', exact: true });

async function exported(page: Page): Promise<{ name: string; text: string }> {
  const { name, bytes } = await exportFrom(page, 'CSV (API fields)');
  return { name, text: bytes.toString('utf8') };
}

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test('a load stopped by the service is marked incomplete on the status, the summary, every chart and the export', async ({
  page,
  context,
}) => {
  await signInContext(context);
  // Slow enough that "All time" (3,000 batches, parts 8 at a time) is still loading when the fault is armed.
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 300 });
  await page.goto('/batches?tz=UTC');

  // While loading: never the bare count, and the summary says what is still on its way.
  await expect(status(page)).toHaveText(/^[1-9][\d,]* batches \(incomplete\)$/);
  await expect(summary(page).getByText('Incomplete', { exact: true })).toBeVisible();
  await expect(summary(page)).toContainText('Still loading:');

  await sandbox('POST', '/_sandbox/inject', { kind: 'malformed-json' });
  await expect(summary(page).getByRole('alert')).toContainText('The batches already loaded are kept.');
  await expect(status(page)).toHaveText(/^[1-9][\d,]* batches \(incomplete\)$/);
  const kept = Number((await status(page).textContent())!.replace(/\D/g, ''));
  expect(kept).toBeLessThan(3000);
  // The spans in the reader's notation (en-GB), never as ISO days.
  await expect(summary(page)).toContainText(/Not loaded: (\d{1,2} [A-Z][a-z]{2,3} \d{4}|everything|the whole range)/);
  await expect(summary(page)).not.toContainText(/\d{4}-\d\d-\d\d/);
  await expect(summary(page).getByRole('button', { name: 'Retry and continue loading' })).toBeVisible();

  // Every chart says so, with its own Retry, and the time chart leaves what did not arrive empty.
  await page.getByRole('heading', { name: 'Charts', level: 2 }).scrollIntoViewIfNeeded();
  await expect(charts(page).getByText('Incomplete', { exact: true })).toBeVisible();
  await expect(charts(page)).toContainText('Not loaded:');
  await expect(charts(page).getByRole('button', { name: 'Retry' })).toBeVisible();
  for (const name of ['Germination rate over time', 'Distribution of germination rates', 'Germination rate per crop']) {
    await expect(page.getByRole('figure', { name: new RegExp(name) })).toContainText('Incomplete');
  }
  // What did not arrive is a marked band, or, when the stop came so early that no span is whole, nothing at all.
  const overTime = page.getByRole('figure', { name: /over time/ });
  await expect(overTime.locator('[data-gap]').or(overTime.getByText(/^Nothing to draw yet/))).not.toHaveCount(0);

  // The export says so in its name and its first line; the rows after it are the rows shown.
  const partial = await exported(page);
  expect(partial.name).toMatch(/-INCOMPLETE\.csv$/);
  const [first, ...rest] = partial.text.split('\r\n');
  expect(readCsv(`${first}\r\n`)[0]![0]).toMatch(/^INCOMPLETE: [\d,]+ batches loaded; not loaded: /);
  expect(readCsv(rest.join('\r\n'))).toHaveLength(kept + 1);
  // The workbook too: in its name, above the data sheet's header and on the view sheet.
  const book = await exportFrom(page, 'Excel (.xlsx)');
  expect(book.name).toMatch(/-INCOMPLETE\.xlsx$/);
  const { sheets } = await readXlsx(book.bytes);
  expect(sheets[0]!.rows[0]![0]).toMatch(/^INCOMPLETE: [\d,]+ batches loaded; not loaded: /);
  expect(sheets[0]!.rows[1]![1]).toBe('Batch');
  expect(sheets[0]!.rows).toHaveLength(kept + 2);
  expect(sheets[1]!.rows.find((r) => r[0] === 'Data complete')![1]).toMatch(/^No: INCOMPLETE: /);

  // Retry fetches only what is missing: then the count is exact, and every note is gone.
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 0 });
  await summary(page).getByRole('button', { name: 'Retry and continue loading' }).click();
  await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
  await expect(page.getByText('Incomplete', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('figure', { name: /over time/ }).locator('[data-gap]')).toHaveCount(0);
  const whole = await exported(page);
  expect(whole.name).not.toMatch(/INCOMPLETE/);
  expect(readCsv(whole.text)).toHaveLength(3001);
});
