import { expect, test, type Page } from '@playwright/test';
import { signInContext } from './signed-in';
import { DEMO, DRIFT, sandbox, signIn, status, walkApi, type ApiBatch } from './support';

// Charts that tell the truth about their data: a metric crops cannot share an axis for is drawn per crop, dates
// on axes carry their year, and a search that matches nothing says so.
test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

const size = (b: ApiBatch) => (b.avg_median_seedling_size_mm2 === null ? null : Number(b.avg_median_seedling_size_mm2));

async function openCharts(page: Page, query: string, count: number) {
  await page.goto(`/batches?${query}`);
  await expect(status(page)).toHaveText(`${count.toLocaleString('en')} batches`, { timeout: 20_000 });
  await page.getByRole('heading', { name: 'Charts', exact: true }).scrollIntoViewIfNeeded();
}

/** The value-axis ticks of a crop's over-time panel, as numbers. */
async function panelTicks(page: Page, crop: string): Promise<number[]> {
  const texts = await page
    .getByRole('figure', { name: /over time/ })
    .locator(`[data-crop="${crop}"] svg text[text-anchor="end"]`)
    .allTextContents();
  return texts.map(Number).filter((v) => Number.isFinite(v));
}

test('median seedling size is shown per crop, each on its own axis, and no caption speaks of a target', async ({
  page,
  context,
}) => {
  const { batches } = await walkApi(await signIn(DEMO));
  await signInContext(context, DEMO);
  // A link asking for one chart of chosen crops: size still gets a panel per crop.
  await openCharts(page, 'tz=UTC&metric=size&chart=focus', batches.length);

  const dist = page.getByRole('figure', {
    name: /^Distribution of median seedling sizes, a panel per crop on its own axis/,
  });
  await expect(dist).toBeVisible();
  const crops = [
    ...new Set(batches.filter((b) => size(b) !== null).map((b) => (b.crop_type as string | null) ?? '(none)')),
  ];
  await expect(dist.locator('[data-crop]')).toHaveCount(crops.length);
  // Each panel counts its crop's batches with a size, of all its batches (as the other charts count them), and names its median.
  const all = batches.filter((b) => b.crop_type === 'Petunia').length;
  const petunia = batches
    .filter((b) => b.crop_type === 'Petunia' && size(b) !== null)
    .map((b) => size(b)!)
    .sort((a, b) => a - b);
  expect(petunia.length).toBeLessThan(all);
  const median = (petunia[(petunia.length - 1) >> 1]! + petunia[petunia.length >> 1]!) / 2;
  await expect(dist.locator('[data-crop="Petunia"] h4')).toHaveText(
    `Petunia${petunia.length} of ${all} batches with a size recorded · median ${Math.round(median)} mm²`,
  );
  // Petunia's bins span petunia's sizes, not the 0–600 of all crops together.
  const bins = await dist
    .locator('[data-crop="Petunia"] [data-bin]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-bin')!.split(':').map(Number)));
  expect(bins[0]![0]).toBeLessThanOrEqual(petunia[0]!);
  expect(bins.at(-1)![1]).toBeGreaterThan(petunia.at(-1)!);
  expect(bins.at(-1)![1]! - bins[0]![0]!).toBeLessThan(100);

  // A bar shows that crop's batches in it.
  const tallest = bins.reduce(
    (best, b, i) =>
      petunia.filter((v) => v >= b[0]! && v < b[1]!).length >
      petunia.filter((v) => v >= bins[best]![0]! && v < bins[best]![1]!).length
        ? i
        : best,
    0,
  );
  const [lo, hi] = bins[tallest]!;
  await dist.locator('[data-crop="Petunia"] [data-bin]').nth(tallest).click();
  await expect(page).toHaveURL(new RegExp(`crop=Petunia.*bins=size%3A${lo}%3A${hi}`));
  await expect(status(page)).toHaveText(`${petunia.filter((v) => v >= lo! && v < hi!).length} batches`);
  await page.goBack();

  // Over time: a panel per crop, each on its own axis (petunia's below 100 mm², cucumber's above 200), no layout to choose.
  const time = page.getByRole('figure', {
    name: /^Median seedling size over time \(.*a panel per crop on its own axis/,
  });
  await expect(time).toBeVisible();
  await expect(time.getByLabel('Layout')).toHaveCount(0);
  expect(Math.max(...(await panelTicks(page, 'Petunia')))).toBeLessThan(100);
  expect(Math.min(...(await panelTicks(page, 'Cucumber')))).toBeGreaterThan(200);

  // Per crop: medians side by side, and nothing about targets anywhere, since size has none.
  await expect(
    page.getByRole('figure', { name: 'Median seedling size per crop (median; batches in brackets)', exact: true }),
  ).toBeVisible();
  for (const figure of await page.locator('#charts ~ div figure').all()) {
    await expect(figure).not.toHaveAccessibleName(/target/);
  }
  await expect(page.locator('#charts ~ div').getByText(/target marked|Red dashed|Red stroke/)).toHaveCount(0);
});

test('dates on chart axes carry their year written out, never as two digits', async ({ page, context }) => {
  const { batches } = await walkApi(await signIn(DRIFT));
  await signInContext(context, DRIFT);
  await openCharts(page, 'tz=UTC&spc=Tomato', batches.length);
  const control = page.getByRole('figure', { name: /^Control chart: Germination rate, Tomato/ });
  await control.scrollIntoViewIfNeeded();
  const ticks = control.locator('.recharts-cartesian-axis-tick-value');
  await expect(ticks.first()).toBeVisible({ timeout: 20_000 });
  // The time axis's ticks (the value axis's end in %).
  const labels = (await ticks.allTextContents()).filter((l) => !l.endsWith('%'));
  expect(labels.length).toBeGreaterThan(3);
  // en-GB: `30 Jan 2026`, then `21 Mar` until the year changes.
  expect(labels[0]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
  for (const label of labels) expect(label).toMatch(/^\d{1,2} [A-Z][a-z]{2,3}( \d{4})?$/);
  const years = new Set(batches.map((b) => String(b.batch_creation_date).slice(0, 4)));
  expect(labels.filter((l) => /\d{4}$/.test(l)).length).toBeLessThanOrEqual(years.size);
  // Weekly panels over time: the year on the first tick, and again where it changes.
  const time = page.getByRole('figure', { name: /over time/ });
  const dates = (await time.locator('[data-crop="Tomato"] svg text').allTextContents()).filter((m) =>
    /[A-Za-z]/.test(m),
  );
  expect(dates[0]).toMatch(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
  for (const date of dates) expect(date).toMatch(/^\d{1,2} [A-Z][a-z]{2,3}( \d{4})?$/);
});

test('a search that matches nothing says so in every chart, not that no batch has a value', async ({
  page,
  context,
}) => {
  await signInContext(context, DEMO);
  await page.goto('/batches?tz=UTC&q=zzzz-no-such-batch');
  await expect(status(page)).toHaveText('0 batches', { timeout: 20_000 });
  await page.getByRole('heading', { name: 'Charts', exact: true }).scrollIntoViewIfNeeded();
  const charts = page.locator('#charts ~ div');
  await expect(charts.getByText('No batch matches the search.')).toHaveCount(5, { timeout: 20_000 });
  await expect(charts.getByText(/No batch has a/)).toHaveCount(0);
});
