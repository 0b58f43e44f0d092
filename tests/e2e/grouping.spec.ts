import { expect, test, type Page } from '@playwright/test';
import { readCsv } from '../helpers/csv';
import { batchesOn, belowCount, daysAgo, oneDecimal, resetTargets, weightedGermination } from './analysis-figures';
import { signInContext } from './signed-in';
import { sandbox, status, type ApiBatch } from './support';

const grouped = (page: Page) => page.getByRole('table', { name: 'Grouped summary' });
/** The row of the group named `name`, its figure cells in column order (batches, germination, usable, CV, below, below share, warnings). */
const groupRow = (page: Page, name: string) =>
  grouped(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/** Monday of the UTC week a batch was created in. */
function mondayOf(b: ApiBatch): string {
  const t = Date.parse(b.batch_creation_date as string);
  const weekday = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), new Date(t).getUTCDate() - weekday))
    .toISOString()
    .slice(0, 10);
}

function by<K>(batches: readonly ApiBatch[], key: (b: ApiBatch) => K): Map<K, ApiBatch[]> {
  const out = new Map<K, ApiBatch[]>();
  for (const b of batches) out.set(key(b), [...(out.get(key(b)) ?? []), b]);
  return out;
}

// A past range of the demo organisation (its batches are the two years before the sandbox started).
const FROM = daysAgo(150),
  TO = daysAgo(90);

test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
});

test('grouped by crop and by week: figures of the API batches, a drill-down per row that back undoes, a CSV export', async ({
  page,
  context,
}) => {
  const cookie = await signInContext(context);
  const batches = await batchesOn(cookie, FROM, TO);
  const [crop, ofCrop] = [...by(batches, (b) => b.crop_type as string | null)]
    .filter(([c]) => c !== null)
    .sort((a, b) => b[1].length - a[1].length)[0]!;
  const below = belowCount(ofCrop);
  expect(below).toBeGreaterThan(0);

  await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}`);
  await expect(status(page)).toHaveText(`${batches.length.toLocaleString('en')} batches`, { timeout: 20_000 });
  await expect(grouped(page)).toHaveCount(0);
  await page.getByLabel('Group by').selectOption('Crop');
  await expect(page).toHaveURL(/group=crop/);

  const row = groupRow(page, crop!);
  await expect(row.getByRole('cell').nth(0)).toHaveText(ofCrop.length.toLocaleString('en'));
  await expect(row.getByRole('cell').nth(1)).toHaveText(`${oneDecimal(weightedGermination(ofCrop)!)}%`);
  await expect(row.getByRole('cell').nth(4)).toHaveText(String(below));

  // Sorted by batches, the most first (the default), then by name on a click.
  await expect(grouped(page).getByRole('row').nth(1).getByRole('rowheader')).toHaveText(crop!);
  await grouped(page).getByRole('button', { name: 'Crop', exact: true }).click();
  await expect(page).toHaveURL(/gsort=key&gdir=asc/);
  await expect(grouped(page).getByRole('columnheader', { name: 'Crop' })).toHaveAttribute('aria-sort', 'ascending');

  // The export is the table as shown, read back by a parser that is not ours.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export grouped CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`Greenfield-Seeds-demo-batches-${FROM}-to-${TO}-by-crop.csv`);
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  // For the reader's spreadsheet: a byte-order mark, and this en-GB browser's comma and decimal point.
  expect(text.startsWith('\uFEFF')).toBe(true);
  const csv = readCsv(text.slice(1));
  expect(csv[0]!.slice(0, 3)).toEqual(['Crop', 'batches', 'germination_rate_weighted_pct']);
  const line = csv.find((r) => r[0] === crop)!;
  expect(Number(line[1])).toBe(ofCrop.length);
  expect(Number(line[2])).toBeCloseTo(weightedGermination(ofCrop)!, 2);
  expect(Number(line[5])).toBe(below);
  expect(csv.slice(1).reduce((n, r) => n + Number(r[1]), 0)).toBe(batches.length);

  // The row drills down to exactly its batches; back takes the drill-down away again.
  await row.getByRole('button').click();
  await expect(status(page)).toHaveText(`${ofCrop.length.toLocaleString('en')} batches`);
  await expect(page.getByRole('list', { name: 'Drill-downs' })).toContainText(`Crop: ${crop}`);
  await page.goBack();
  await expect(page.getByRole('list', { name: 'Drill-downs' })).toHaveCount(0);
  await expect(status(page)).toHaveText(`${batches.length.toLocaleString('en')} batches`);

  // By week (Monday to Sunday, UTC here): the busiest week's figures, and its drill-down to its days.
  await page.getByLabel('Group by').selectOption('Week');
  const [monday, ofWeek] = [...by(batches, mondayOf)].sort(
    (a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]),
  )[0]!;
  const label = `Week of ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(Date.parse(monday))}`;
  const week = groupRow(page, label);
  await expect(week.getByRole('cell').nth(0)).toHaveText(ofWeek.length.toLocaleString('en'));
  await expect(week.getByRole('cell').nth(1)).toHaveText(`${oneDecimal(weightedGermination(ofWeek)!)}%`);
  await expect(week.getByRole('cell').nth(4)).toHaveText(String(belowCount(ofWeek)));
  await week.getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`days=${monday}\\.\\.`));
  await expect(status(page)).toHaveText(`${ofWeek.length.toLocaleString('en')} batches`);
});
