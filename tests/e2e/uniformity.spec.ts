import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { inBin } from '../../lib/explorer/metrics';
import { startSandbox } from '../../sandbox/server';
import { startApp } from './app-instance';
import { signInContext } from './signed-in';
import { DEMO, sandbox, signIn, status, walkApi } from './support';

/** The chart, once scrolled to (charts are drawn only when someone scrolls that far). */
async function uniformity(page: Page) {
  await page.locator('#charts').scrollIntoViewIfNeeded();
  const chart = page.getByRole('region', { name: 'Germination vs uniformity' });
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator('[data-mark]').first()).toBeVisible({ timeout: 30_000 });
  return chart;
}

const rate = (v: unknown) => (v === null ? null : Number(v));

test.describe('on the demo organisation', () => {
  test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

  test('a density cell drills down to exactly its batches; an isolated point opens its batch; the table does both', async ({ page, context }) => {
    await signInContext(context);
    await page.goto('/batches?tz=UTC');
    await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
    const { batches } = await walkApi(await signIn(DEMO));
    const chart = await uniformity(page);

    const inCell = (url: string) => {
      const bins = new URL(url).searchParams.get('bins')!.split(';').map((b) => b.split(':'));
      const g = bins.find((b) => b[0] === 'germination')!.map(Number), cv = bins.find((b) => b[0] === 'cv')!.map(Number);
      return batches.filter((b) => inBin('germination', rate(b.avg_germination_rate), g[1]!, g[2]!) && inBin('cv', rate(b.avg_coefficient_of_variation), cv[1]!, cv[2]!)).length;
    };
    await chart.locator('[data-mark="cell"]').first().click();
    await expect(page).toHaveURL(/bins=germination%3A[\d.]+%3A[\d.]+%3Bcv%3A/);
    const expected = inCell(page.url());
    expect(expected).toBeGreaterThan(1);
    await expect(status(page)).toHaveText(`${expected.toLocaleString('en')} batches`);
    // The chart is drawn without its own drill-down: the other marks stay, around the chosen cell.
    await expect.poll(() => chart.locator('[data-mark]').count()).toBeGreaterThan(expected);

    // The lowest germination of all is alone in its corner: a point of its own, and it opens that batch.
    await page.goBack();
    await expect(status(page)).toHaveText('3,000 batches');
    const drawn = batches.filter((b) => b.avg_germination_rate !== null && b.avg_coefficient_of_variation !== null);
    const lowest = drawn.reduce((a, b) => (Number(b.avg_germination_rate) < Number(a.avg_germination_rate) ? b : a));
    const point = (await uniformity(page)).locator(`[data-mark="point"][data-batch="${lowest.batch_id}"]`);
    await expect(point).toHaveCount(1);
    await point.click();
    await expect(page.getByRole('dialog')).toContainText(String(lowest.batch_name));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    // Keyboard: the table's first cell per row is a button doing what a click on that mark does.
    const toggle = chart.getByRole('button', { name: 'Show as table' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const first = chart.getByRole('table').getByRole('button').first();
    await expect(first).toHaveText(/^Show [\d,]+ batches$/);
    const n = Number((await first.textContent())!.replace(/\D/g, ''));
    await first.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/bins=/);
    expect(inCell(page.url())).toBe(n);
    await expect(status(page)).toHaveText(`${n.toLocaleString('en')} batches`);
  });

  test('the CV threshold set in the targets panel is drawn as the quadrant line', async ({ page, context }) => {
    await signInContext(context);
    await page.goto('/batches?tz=UTC');
    await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
    const chart = await uniformity(page);
    await expect(chart.locator('[data-line="target"]')).toHaveText('Germination target 90 %');
    await expect(chart.locator('[data-line="cv"]')).toHaveCount(0);
    await expect(chart.getByText('No CV threshold set (Targets).', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Targets' }).click();
    await page.getByLabel('General CV threshold (%)').fill('15');
    await expect(chart.locator('[data-line="cv"]')).toHaveText('CV threshold 15 %');
    await expect(chart.getByText('Even and on target')).toBeVisible();
    // Not saved: the link carries it.
    await expect(page).toHaveURL(/targets=/);
  });
});

test('100,000 batches: the chart draws at most about 2,000 marks', async ({ browser }) => {
  test.setTimeout(300_000);
  const big = await startSandbox({ port: 4541, batches: 100_000, seed: 'e2e-big', pageSize: 100 });
  const dir = mkdtempSync(join(tmpdir(), 'tsb-e2e-unif-'));
  const app = await startApp(3541, { BATCH_API_BASE_URL: big.url, SETTINGS_DATA_DIR: dir });
  try {
    const total = big.organisations[0]!.batches.length;
    const response = await fetch(`${app.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
    });
    expect(response.status).toBe(204);
    const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const at = cookie.indexOf('=');
    await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
    const page = await context.newPage();
    await page.goto(`${app.url}/batches?tz=UTC`);
    await expect(status(page)).toHaveText(`${total.toLocaleString('en')} batches`, { timeout: 240_000 });
    await page.evaluate(() => {
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({ type: 'longtask' });
    });
    const chart = await uniformity(page);
    const marks = await chart.locator('[data-mark]').count();
    expect(marks).toBeGreaterThan(0);
    expect(marks).toBeLessThanOrEqual(2000);
    const caption = await chart.getByText(/drawn as points/).textContent();
    const longTasks = await page.evaluate(() => (window as unknown as { __long: number[] }).__long);
    // Figures for the report, not assertions (numbers belong in bench/).
    const figures = `${marks} marks; ${caption}; long tasks while drawing: ${longTasks.map((d) => Math.round(d)).join(', ') || 'none'} ms`;
    test.info().annotations.push({ type: 'figures', description: figures });
    console.log(`uniformity at ${total}: ${figures}`);
    await context.close();
  } finally {
    await app.stop();
    await big.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
