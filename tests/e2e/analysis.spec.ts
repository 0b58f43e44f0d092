import { expect, test, type Page } from '@playwright/test';
import { DEMO, openSignedIn, signIn, status, walkApi, type ApiBatch } from './support';

// Issue 10 §1–2: charts for reading and drill-down from every mark, against the sandbox's demo organisation.
const FROM = '2025-06-01';
const TO = '2025-08-31';
const PATH = `/batches?from=${FROM}&to=${TO}&tz=UTC`;

let batches: ApiBatch[] = [];
test.beforeAll(async () => {
  const all = (await walkApi(await signIn(DEMO))).batches;
  const lo = Date.parse(`${FROM}T00:00:00Z`),
    hi = Date.parse(`${TO}T00:00:00Z`) + 86_400_000;
  batches = all.filter((b) => {
    const t = Date.parse(String(b.batch_creation_date));
    return t >= lo && t < hi;
  });
});

/** The status line's text for n batches. */
const shownText = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'batch' : 'batches'}`;

const rate = (b: ApiBatch) => (b.avg_germination_rate === null ? null : Number(b.avg_germination_rate));
/** In a germination bin as the chart counts it: from lo up to hi, 100 % in the top bin. */
const inBin = (b: ApiBatch, lo: number, hi: number) => {
  const v = rate(b);
  return v !== null && v >= lo && (v < hi || (hi >= 100 && v <= 100));
};

async function openCharts(page: Page, path = PATH) {
  await openSignedIn(page, path, DEMO);
  await expect(status(page)).toHaveText(shownText(batches.length));
  await page.getByRole('heading', { name: 'Charts', exact: true }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('figure', { name: /Distribution of germination rates/ })).toBeVisible();
}

test('a histogram bin drills down to exactly its batches; the chip and Back undo it', async ({ page }) => {
  await openCharts(page);
  const dist = page.getByRole('figure', { name: /Distribution of germination rates/ });
  // The tallest bar: click its top segment.
  const bars = dist.locator('.recharts-bar-rectangle path');
  await expect(bars.first()).toBeVisible();
  const boxes = await bars.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  const tallest = boxes.indexOf(Math.max(...boxes));
  await bars.nth(tallest).click();
  const chip = page.getByRole('list', { name: 'Drill-downs' }).getByText(/^Germination [\d.]+% – [\d.]+%$/);
  await expect(chip).toBeVisible();
  const [, lo, hi] = /([\d.]+)% – ([\d.]+)%/.exec((await chip.textContent())!)!.map(Number) as [number, number, number];
  const want = batches.filter((b) => inBin(b, lo, hi)).length;
  expect(want).toBeGreaterThan(0);
  await expect(status(page)).toHaveText(shownText(want));
  expect(new URL(page.url()).searchParams.get('bins')).toBe(`germination:${lo}:${hi}`);
  // The distribution keeps every bin (it is drawn without its own drill-down).
  await expect(bars).toHaveCount(boxes.length);
  await page.goBack();
  await expect(chip).toHaveCount(0);
  await expect(status(page)).toHaveText(shownText(batches.length));
  await page.goForward();
  await expect(chip).toBeVisible();
  await page.getByRole('button', { name: `Remove Germination ${lo}% – ${hi}%` }).click();
  await expect(chip).toHaveCount(0);
});

test('Show as table, by keyboard: the first cell of a row drills down like the mark', async ({ page }) => {
  await openCharts(page);
  const dist = page.getByRole('figure', { name: /Distribution of germination rates/ });
  const toggle = dist.getByRole('button', { name: 'Show as table' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const table = dist.getByRole('table');
  await expect(table).toBeVisible();
  // Every bin's count in the table equals the batches in it.
  for (const row of await table.locator('tbody tr').all()) {
    const label = (await row.getByRole('button').textContent())!;
    const [, lo, hi] = /([\d.]+)% – ([\d.]+)%/.exec(label)!.map(Number) as [number, number, number];
    await expect(row.locator('td').first()).toHaveText(
      batches.filter((b) => inBin(b, lo, hi)).length.toLocaleString('en'),
    );
  }
  await page.keyboard.press('Tab');
  const first = table.getByRole('button').first();
  await expect(first).toBeFocused();
  const label = (await first.textContent())!;
  await page.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'Drill-downs' }).getByText(label)).toBeVisible();
  const [, lo, hi] = /([\d.]+)% – ([\d.]+)%/.exec(label)!.map(Number) as [number, number, number];
  const want = batches.filter((b) => inBin(b, lo, hi)).length;
  await expect(status(page)).toHaveText(shownText(want));

  // The crops table, by keyboard too: its first crop filters the table to that crop.
  const crops = page.getByRole('figure', { name: /^Germination rate per crop/ });
  await crops.getByRole('button', { name: 'Show as table' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const crop = (await crops.getByRole('table').getByRole('button').first().textContent())!;
  await page.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'Drill-downs' }).getByText(`Crop: ${crop}`)).toBeVisible();
  const both = batches.filter((b) => b.crop_type === crop && inBin(b, lo, hi)).length;
  await expect(status(page)).toHaveText(shownText(both));
});

test('dragging across the time axis sets the date range; a click on a week drills into it', async ({ page }) => {
  await openCharts(page);
  const time = page.getByRole('figure', { name: /over time/ });
  const panel = time.locator('[data-crop]').first();
  const crop = (await panel.getAttribute('data-crop'))!;
  const plot = panel.locator('[data-plot]');
  await plot.scrollIntoViewIfNeeded();
  // The sections below the charts draw a moment later: wait until the page stops moving.
  await expect(page.getByRole('region', { name: 'Germination vs uniformity' })).toBeVisible();
  await plot.scrollIntoViewIfNeeded();
  const box = (await plot.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.25, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.45, y, { steps: 8 });
  await page.mouse.move(box.x + box.width * 0.6, y, { steps: 8 });
  await page.mouse.up();
  await expect(page).not.toHaveURL(new RegExp(`from=${FROM}`));
  const url = new URL(page.url());
  const from = url.searchParams.get('from')!,
    to = url.searchParams.get('to')!;
  expect(from > FROM && to < TO && from < to).toBe(true);
  // Whole weeks (Monday to Sunday), as the buckets are.
  expect(new Date(`${from}T00:00:00Z`).getUTCDay()).toBe(1);
  expect(new Date(`${to}T00:00:00Z`).getUTCDay()).toBe(0);
  const lo = Date.parse(`${from}T00:00:00Z`),
    hi = Date.parse(`${to}T00:00:00Z`) + 86_400_000;
  const inRange = batches.filter(
    (b) => Date.parse(String(b.batch_creation_date)) >= lo && Date.parse(String(b.batch_creation_date)) < hi,
  );
  await expect(status(page)).toHaveText(shownText(inRange.length));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`from=${FROM}&to=${TO}`));

  // A click (no drag) on a week of a crop's panel: that crop's batches of that week.
  await expect(status(page)).toHaveText(shownText(batches.length));
  await plot.scrollIntoViewIfNeeded();
  const again = (await plot.boundingBox())!;
  await page.mouse.click(again.x + again.width * 0.5, again.y + again.height / 2);
  await expect(page).toHaveURL(/days=/);
  const days = new URL(page.url()).searchParams.get('days')!;
  const [d1, d2] = days.split('..') as [string, string];
  const a = Date.parse(`${d1}T00:00:00Z`),
    b = Date.parse(`${d2}T00:00:00Z`) + 86_400_000;
  expect((b - a) / 86_400_000).toBe(7);
  const want = batches.filter(
    (x) =>
      x.crop_type === crop &&
      Date.parse(String(x.batch_creation_date)) >= a &&
      Date.parse(String(x.batch_creation_date)) < b,
  ).length;
  await expect(status(page)).toHaveText(shownText(want));
  await expect(page.getByRole('list', { name: 'Drill-downs' }).getByText(`Crop: ${crop}`)).toBeVisible();
});

test('the Metric select switches every chart, and a crop keeps its colour across views', async ({ page }) => {
  await openCharts(page);
  const colourOf = async (crop: string) =>
    page.locator(`[data-crop="${crop}"] [data-line]`).first().getAttribute('stroke');
  const before = await colourOf('Tomato');
  await page.getByLabel('Metric').selectOption('cv');
  await expect(page).toHaveURL(/metric=cv/);
  await expect(page.getByRole('figure', { name: /CV of seedling size over time/ })).toBeVisible();
  await expect(page.getByRole('figure', { name: /Distribution of CVs of seedling size/ })).toBeVisible();
  await expect(page.getByRole('figure', { name: /CV of seedling size per crop/ })).toBeVisible();
  expect(await colourOf('Tomato')).toBe(before);
  await page.getByLabel('Crop', { exact: true }).selectOption('Tomato');
  expect(await colourOf('Tomato')).toBe(before);
  // Compare with overlays the previous period on each panel, aligned with this range.
  await page.getByLabel('Compare with').selectOption('previous');
  await expect(
    page
      .getByRole('figure', { name: /over time/ })
      .locator('[data-compare]')
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('figure', { name: /over time/ })).toContainText('aligned with this range');
  await page.getByLabel('Metric').selectOption('size');
  await expect(page.getByRole('figure', { name: /Distribution of median seedling sizes/ })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/metric=cv/);
});
