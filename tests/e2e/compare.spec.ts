import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { batchesOn, belowCount, daysAgo, oneDecimal, resetTargets, weightedGermination } from './analysis-figures';
import { signInContext } from './signed-in';
import { escapeRegExp, sandbox, status } from './support';

const summary = (page: Page) => page.getByRole('region', { name: 'Summary' });
/** The change under the summary card titled `title` (a `<small>` at the end of its value). */
const change = (page: Page, title: string) =>
  summary(page)
    .locator('div', { has: page.getByText(title, { exact: true }) })
    .locator('dd small');

const MINUS = '\u2212';
/** `+1.2 pp`, `−0.8 pp`, worked out here rather than by the app's formatter. */
function pp(now: number, before: number): string {
  const text = oneDecimal(Math.abs(now - before));
  return Number(text) === 0 ? '±0.0 pp' : `${now > before ? '+' : MINUS}${text} pp`;
}
function percent(now: number, before: number): string {
  const change = ((now - before) / before) * 100;
  const text = new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(Math.abs(change));
  return Number(text) === 0 ? '±0%' : `${change > 0 ? '+' : MINUS}${text}%`;
}
const shiftDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
function yearBefore(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y - 1, m, 0)).getUTCDate();
  return `${y - 1}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
});

test('previous period: changes of a past range in percentage points and percent, from the API batches of both windows', async ({
  page,
  context,
}) => {
  const cookie = await signInContext(context);
  // 30 whole days in the past (the demo's batches are the two years before the sandbox started), and the 30 before.
  const FROM = daysAgo(120),
    TO = daysAgo(91);
  const current = await batchesOn(cookie, FROM, TO);
  const before = await batchesOn(cookie, shiftDays(FROM, -30), shiftDays(FROM, -1));
  expect(before.length).toBeGreaterThan(0);

  await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}`);
  await expect(status(page)).toHaveText(`${current.length.toLocaleString('en')} batches`, { timeout: 20_000 });
  await expect(change(page, 'Batches')).toHaveCount(0);
  await page.getByLabel('Compare with').selectOption('Previous period');
  await expect(page).toHaveURL(/compare=previous/);

  const germination = pp(weightedGermination(current)!, weightedGermination(before)!);
  await expect(change(page, 'Germination (weighted)')).toHaveText(
    new RegExp(`^${escapeRegExp(germination)} \\(was ${escapeRegExp(oneDecimal(weightedGermination(before)!))}%\\)$`),
    { timeout: 20_000 },
  );
  await expect(change(page, 'Batches')).toHaveText(
    new RegExp(
      `^${escapeRegExp(percent(current.length, before.length))} \\(was ${before.length.toLocaleString('en')}\\)$`,
    ),
  );
  await expect(change(page, 'Below target')).toHaveText(
    new RegExp(`^${escapeRegExp(percent(belowCount(current), belowCount(before)))}, `),
  );
  await expect(summary(page)).toContainText('(previous period): rates in percentage points');

  // The same filter narrows both periods: one crop, its own change.
  const crop = 'Lettuce';
  const mine = current.filter((b) => b.crop_type === crop),
    theirs = before.filter((b) => b.crop_type === crop);
  await page.getByLabel('Crop', { exact: true }).selectOption(crop);
  await expect(status(page)).toHaveText(`${mine.length.toLocaleString('en')} batches`);
  await expect(change(page, 'Germination (weighted)')).toHaveText(
    new RegExp(`^${escapeRegExp(pp(weightedGermination(mine)!, weightedGermination(theirs)!))} `),
  );

  // All time has nothing before it: said, not guessed.
  await page.goto('/batches?tz=UTC&compare=previous');
  await expect(summary(page)).toContainText('All time has no period before it to compare with');
});

test('same period last year: the same calendar days a year earlier', async ({ page, context }) => {
  const cookie = await signInContext(context);
  const FROM = daysAgo(80),
    TO = daysAgo(60);
  const current = await batchesOn(cookie, FROM, TO);
  const before = await batchesOn(cookie, yearBefore(FROM), yearBefore(TO));
  expect(before.length).toBeGreaterThan(0);

  await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}&compare=last-year&group=crop`);
  await expect(status(page)).toHaveText(`${current.length.toLocaleString('en')} batches`, { timeout: 20_000 });
  await expect(change(page, 'Batches')).toHaveText(
    new RegExp(`^${escapeRegExp(percent(current.length, before.length))} `),
    { timeout: 20_000 },
  );
  await expect(change(page, 'Germination (weighted)')).toHaveText(
    new RegExp(`^${escapeRegExp(pp(weightedGermination(current)!, weightedGermination(before)!))} `),
  );
  await expect(summary(page)).toContainText('(same period last year)');
  // The changes and the grouped summary beside them pass axe as the rest of the page does.
  await expect(page.getByRole('table', { name: 'Grouped summary' })).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
});
