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

  test('every batch is a point in its crop’s colour; a point opens its batch; the table does the same by keyboard', async ({
    page,
    context,
  }) => {
    await signInContext(context);
    await page.goto('/batches?tz=UTC');
    await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
    const { batches } = await walkApi(await signIn(DEMO));
    const chart = await uniformity(page);
    const drawn = batches.filter((b) => b.avg_germination_rate !== null && b.avg_coefficient_of_variation !== null);
    // 3,000 batches are no crowd: each one a point of its own, no cell, no grey "mixed crops".
    await expect(chart.locator('[data-mark="point"]')).toHaveCount(drawn.length);
    await expect(chart.locator('[data-mark="cell"]')).toHaveCount(0);
    await expect(chart.getByText(`${drawn.length.toLocaleString('en')} batches, each drawn as a point`)).toBeVisible();
    // The legend names what is drawn: the crops, and the glyphs of the verdicts that occur.
    const legend = chart.getByRole('list', { name: 'What the chart shows' });
    await expect(legend).toContainText('Tomato');
    await expect(legend).toContainText('below its crop’s germination target');
    await expect(legend).not.toContainText(/mixed|Square/i);
    // Every crop is judged by the general 90 % here: one line is right for all of them.
    await expect(chart.locator('[data-line="target"]')).toHaveText('Germination target 90%');
    await expect(
      chart.getByText(/Lines: the germination target and CV threshold every crop shown is judged by/),
    ).toBeVisible();

    const lowest = drawn.reduce((a, b) => (Number(b.avg_germination_rate) < Number(a.avg_germination_rate) ? b : a));
    const point = chart.locator(`[data-mark="point"][data-batch="${lowest.batch_id}"]`);
    await expect(point).toHaveCount(1);
    await point.click();
    await expect(page.getByRole('dialog')).toContainText(String(lowest.batch_name));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    // Closing goes back in history: wait for it, or the next opening could be undone by it.
    await expect(page).not.toHaveURL(/[?&]batch=/);

    // Keyboard: the table's first cell per row is a button doing what a click on that mark does.
    const toggle = chart.getByRole('button', { name: 'Show as table' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const first = chart.getByRole('table').getByRole('button').first();
    const name = (await first.textContent())!;
    await first.focus();
    await page.keyboard.press('Enter');
    // Opening a modal over a page holding the ~3,000-row table restyles all of it: on a loaded machine that has
    // taken over 5 s. A CSS locator, as the role query walking those rows on every poll slows it further.
    await expect(page.locator('dialog[open] h2')).toHaveText(name, { timeout: 20_000 });
  });

  test('each batch is judged by its own crop’s target: Bell pepper at 55 %, a batch at 85 % is not below', async ({
    page,
    context,
  }) => {
    await signInContext(context);
    const { batches } = await walkApi(await signIn(DEMO));
    const drawn = batches.filter((b) => b.avg_germination_rate !== null && b.avg_coefficient_of_variation !== null);
    const pepper = drawn.find(
      (b) =>
        b.crop_type === 'Bell pepper' && Number(b.avg_germination_rate) >= 80 && Number(b.avg_germination_rate) < 90,
    )!;
    const tomato = drawn.find(
      (b) => b.crop_type === 'Tomato' && Number(b.avg_germination_rate) >= 80 && Number(b.avg_germination_rate) < 90,
    )!;
    expect(pepper && tomato).toBeTruthy();
    await page.goto(`/batches?tz=UTC&targets=${encodeURIComponent('*:90/;Bell%20pepper:55/')}`);
    await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
    const chart = await uniformity(page);
    // Several crops: no single target line could be right for all of them; each point carries its verdict.
    await expect(chart.locator('[data-line]')).toHaveCount(0);
    await expect(
      chart.getByText(/^[\d,]+ batches, each drawn as a point.*\. Judged by each crop’s own target: /),
    ).toBeVisible();
    await expect(chart.locator(`[data-batch="${pepper.batch_id}"]`)).toHaveAttribute('data-verdict', 'meets');
    await expect(chart.locator(`[data-batch="${tomato.batch_id}"]`)).toHaveAttribute('data-verdict', 'below');
    // The tooltip says so in words, the rate in the table's notation.
    // Points overlap: the pointer over this one exactly (a hover at its centre may find a neighbour drawn above it).
    const mark = chart.locator(`[data-batch="${pepper.batch_id}"]`);
    const box = (await mark.boundingBox())!;
    await mark.dispatchEvent('pointermove', {
      bubbles: true,
      clientX: box.x + box.width / 2,
      clientY: box.y + box.height / 2,
    });
    const rate = `${Number(pepper.avg_germination_rate).toLocaleString('en-GB', { maximumFractionDigits: 2 })}%`;
    await expect(chart.getByText(`Germination ${rate}`)).toBeVisible();
    await expect(chart.getByText('Meets the Bell pepper germination target of 55%')).toBeVisible();
    // Every Bell pepper batch at or above 55 % is drawn as meeting its target.
    const peppers = drawn.filter((b) => b.crop_type === 'Bell pepper');
    const below = peppers.filter((b) => Number(b.avg_germination_rate) < 55).length;
    for (const b of peppers.slice(0, 40)) {
      await expect(chart.locator(`[data-batch="${b.batch_id}"]`)).toHaveAttribute(
        'data-verdict',
        Number(b.avg_germination_rate) < 55 ? 'below' : 'meets',
      );
    }
    expect(below).toBeLessThan(peppers.length);

    // One crop shown: that crop's own lines.
    await page.getByLabel('Crop', { exact: true }).selectOption('Bell pepper');
    await expect(chart.locator('[data-line="target"]')).toHaveText('Germination target 55%');
    await expect(chart.getByRole('figure')).toHaveAccessibleName(/^Germination vs uniformity, Bell pepper:/);
  });

  test('the CV threshold set in the targets panel is drawn as the quadrant line of the crop shown', async ({
    page,
    context,
  }) => {
    await signInContext(context);
    await page.goto('/batches?tz=UTC&crop=Lettuce');
    await expect(status(page)).toHaveText(/^[\d,]+ batches/, { timeout: 20_000 });
    const chart = await uniformity(page);
    await expect(chart.locator('[data-line="target"]')).toHaveText('Germination target 90%');
    await expect(chart.locator('[data-line="cv"]')).toHaveCount(0);
    await expect(chart.getByText('No CV threshold set (Targets).', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Targets' }).click();
    await page.getByLabel('General CV threshold (%)').fill('15');
    await expect(chart.locator('[data-line="cv"]')).toHaveText('CV threshold 15%');
    await expect(chart.getByText('Even and on target')).toBeVisible();
    // Batches over it are squares, named in the legend.
    await expect(chart.locator('[data-cv-verdict="over"]').first()).toBeVisible();
    await expect(chart.getByRole('list', { name: 'What the chart shows' })).toContainText('over its CV threshold');
    // Not saved: the link carries it.
    await expect(page).toHaveURL(/targets=/);
  });
});

test('100,000 batches: equal cells that drill down to exactly their batches; a narrower range draws every batch as a point on a canvas', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const big = await startSandbox({ port: 4541, batches: 100_000, seed: 'e2e-big', pageSize: 100 });
  const dir = mkdtempSync(join(tmpdir(), 'tsb-e2e-unif-'));
  const app = await startApp(3541, { BATCH_API_BASE_URL: big.url, SETTINGS_DATA_DIR: dir });
  try {
    const all = big.organisations[0]!.batches;
    const total = all.length;
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
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({
        type: 'longtask',
      });
    });
    const chart = await uniformity(page);
    const cells = chart.locator('[data-mark="cell"]');
    const marks = await cells.count();
    expect(marks).toBeGreaterThan(0);
    expect(marks).toBeLessThanOrEqual(2000);
    const caption = await chart.locator('[data-part="uniformity-caption"]').textContent();
    expect(caption).toMatch(/ in [\d,]+ equal cells/);
    // Equal cells: every one as wide and as tall as the others (no staircase of uneven rectangles).
    for (const side of ['width', 'height']) {
      const sizes = await cells.evaluateAll((els, a) => els.map((e) => Number(e.getAttribute(a))), side);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(0.01);
    }
    const longTasks = await page.evaluate(() => (window as unknown as { __long: number[] }).__long);

    // A cell drills down to exactly its batches.
    await cells.nth(Math.floor(marks / 2)).click({ force: true });
    await expect(page).toHaveURL(/bins=germination%3A[\d.]+%3A[\d.]+%3Bcv%3A/);
    const bins = new URL(page.url()).searchParams
      .get('bins')!
      .split(';')
      .map((b) => b.split(':'));
    const g = bins.find((b) => b[0] === 'germination')!.map(Number),
      cv = bins.find((b) => b[0] === 'cv')!.map(Number);
    const held = all.filter(
      (b) =>
        inBin('germination', rate(b.avg_germination_rate), g[1]!, g[2]!) &&
        inBin('cv', rate(b.avg_coefficient_of_variation), cv[1]!, cv[2]!),
    ).length;
    await expect(status(page)).toHaveText(`${held.toLocaleString('en')} batches`);

    // The last 100 days: fewer batches than the point limit, more than SVG draws one by one: a canvas of points.
    const to = String(all.at(-1)!.batch_creation_date).slice(0, 10);
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - 99 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`${app.url}/batches?tz=UTC&from=${from}&to=${to}`);
    const inRange = all.filter(
      (b) => String(b.batch_creation_date).slice(0, 10) >= from && String(b.batch_creation_date).slice(0, 10) <= to,
    );
    const drawn = inRange.filter(
      (b) => b.avg_germination_rate !== null && b.avg_coefficient_of_variation !== null,
    ).length;
    expect(drawn).toBeGreaterThan(4_000);
    expect(drawn).toBeLessThanOrEqual(50_000);
    await expect(status(page)).toHaveText(`${inRange.length.toLocaleString('en')} batches`, { timeout: 120_000 });
    await page.locator('#charts').scrollIntoViewIfNeeded();
    const again = page.getByRole('region', { name: 'Germination vs uniformity' });
    await again.scrollIntoViewIfNeeded();
    const canvas = again.locator('canvas[data-marks="canvas"]');
    await expect(canvas).toHaveAttribute('data-points', String(drawn), { timeout: 30_000 });
    // The canvas is drawn: some pixel is not blank.
    expect(
      await canvas.evaluate((c: HTMLCanvasElement) =>
        c
          .getContext('2d')!
          .getImageData(0, 0, c.width, c.height)
          .data.some((v) => v !== 0),
      ),
    ).toBe(true);
    // Hovering where the batches are dense names one; a click there opens it (positions within the canvas, so a
    // chart above that finishes drawing and moves it cannot send the click elsewhere).
    const box = (await canvas.boundingBox())!;
    let named: string | null = null;
    for (let k = 0; k < 20 && !named; k++) {
      const position = { x: box.width * (0.3 + 0.02 * k), y: box.height * 0.25 };
      await canvas.hover({ position });
      // A hover is drawn at the next frame (and so is the end of the last one): read the tooltip after two.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const tip = again.locator('[role="presentation"] strong');
      if (await tip.count()) {
        named = await tip.textContent();
        await canvas.click({ position });
      }
    }
    expect(named).not.toBeNull();
    await expect(page).toHaveURL(/[?&]batch=/, { timeout: 30_000 });
    await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(named!, { timeout: 30_000 });
    // Figures for the report, not assertions (numbers belong in bench/).
    const figures = `${marks} cells at ${total}; ${caption}; long tasks while drawing: ${longTasks.map((d) => Math.round(d)).join(', ') || 'none'} ms`;
    test.info().annotations.push({ type: 'figures', description: figures });
    console.log(`uniformity at ${total}: ${figures}`);
    await context.close();
  } finally {
    await app.stop();
    await big.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
