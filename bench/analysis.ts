/**
 * Issue 10, speed: the analysis with 100,000 batches in Chromium. From the input event to the changed view on
 * screen (DOM change, then the next frame): switching the Metric, the Group by and the Compare with selects,
 * and a drill-down click on a bar of the distribution; and the longest main-thread task meanwhile.
 */
import type { Page } from '@playwright/test';
import { signedInContext, withBrowserStack } from './support/browser';
import { runDirectly } from './support/main';
import { installProbes, longTasks, timed } from './support/probes';
import { fmtMs, median, type BenchResult } from './support/stats';

const BATCHES = Number(process.env.BENCH_INTERACTION_BATCHES ?? 100_000);
const APP_PORT = 4663;
const ROUNDS = 5;

/** Times `rounds` changes of a select through `values`, watching `watch`; NaN (nothing changed) is left out. */
async function selectTimes(page: Page, label: string, values: string[], watch: string): Promise<number[]> {
  const select = page.getByLabel(label, { exact: true });
  const times: number[] = [];
  for (let i = 0; i < ROUNDS * values.length; i++) {
    const ms = await timed(page, watch, async () => void (await select.selectOption(values[i % values.length]!)));
    if (!Number.isNaN(ms)) times.push(ms);
    await page.waitForTimeout(600);
  }
  return times;
}

export function run(): Promise<BenchResult[]> {
  const sandboxOptions = { batches: BATCHES, pageSize: 100, latencyMs: 0, seed: 'bench' };
  return withBrowserStack(
    { sandbox: sandboxOptions, appPort: APP_PORT },
    async ({ appUrl, browser, cookie, total }) => {
      const context = await signedInContext(browser, appUrl, cookie, { width: 1366, height: 900 });
      const page = await context.newPage();
      await installProbes(page);
      // Every batch, as days (the sandbox's two years): Compare with then loads its period through the stream; All
      // time has nothing to compare with.
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      await page.goto(`${appUrl}/batches?tz=UTC&from=${day(Date.now() - 731 * 86_400_000)}&to=${day(Date.now())}`);
      const status = page.getByRole('status').first();
      await status.filter({ hasText: `${total.toLocaleString('en-US')} batches` }).waitFor({ timeout: 180_000 });
      await page.getByRole('heading', { name: 'Charts', exact: true }).scrollIntoViewIfNeeded();
      await page.locator('figure[aria-labelledby=chart-crops]').waitFor({ timeout: 60_000 });
      await page.waitForTimeout(2000);
      const before = (await longTasks(page)).length;

      let seen = 0;
      const phase = async (name: string) => {
        if (!process.env.BENCH_VERBOSE) return;
        const all = await longTasks(page, before);
        console.log(
          name,
          all
            .slice(seen)
            .map((d) => d.toFixed(0))
            .join(' '),
        );
        seen = all.length;
      };
      const metric = await selectTimes(page, 'Metric', ['cv', 'usable', 'size', 'germination'], '[aria-label=Charts]');
      await phase('after metric');
      const group = await selectTimes(page, 'Group by', ['crop', 'week', 'scanner', ''], 'main');
      await phase('after group');
      // Each change to or from Nothing, so the cards always change (two comparisons both loading read alike).
      const compare = await selectTimes(
        page,
        'Compare with',
        ['previous', '', 'last-year', ''],
        '[aria-label=Summary]',
      );

      await phase('after compare');
      // Drill-down: a bar of the distribution, then its chip's removal (both are drill-down changes).
      const drill: number[] = [];
      const bars = page.getByRole('figure', { name: /Distribution of/ }).locator('.recharts-bar-rectangle path');
      for (let i = 0; i < ROUNDS; i++) {
        const n = await bars.count();
        const bar = bars.nth(Math.floor(n / 2) + i - 2);
        const ms = await timed(page, '[role=status]', () => bar.click());
        if (!Number.isNaN(ms)) drill.push(ms);
        await page.waitForTimeout(600);
        await phase(`drill ${ms.toFixed(0)}`);
        const chip = page.getByRole('button', { name: /^Remove Germination/ });
        const back = await timed(page, '[role=status]', () => chip.click());
        if (!Number.isNaN(back)) drill.push(back);
        await page.waitForTimeout(600);
        await phase(`chip ${back.toFixed(0)}`);
      }
      const tasks = (await longTasks(page)).slice(before);
      await context.close();

      const longest = Math.max(0, ...tasks);
      const line = (name: string, times: number[], goal: number): BenchResult => ({
        target: name,
        figure: `median ${fmtMs(median(times))} (max ${fmtMs(Math.max(...times))}, ${times.length} changes)`,
        goal: `≤ ${goal} ms`,
        ok: median(times) <= goal,
      });
      return [
        line(`10a. switching the Metric, ${total.toLocaleString('en-US')} rows`, metric, 200),
        line('10b. switching Group by', group, 200),
        line('10c. switching Compare with', compare, 200),
        line('10d. a drill-down click (a bar, then its chip)', drill, 150),
        {
          target: '10e. longest main-thread task during these changes',
          figure: `${fmtMs(longest)} (${tasks.length} tasks over 50 ms, ${tasks.filter((d) => d > 200).length} over 200 ms)`,
          goal: '≤ 200 ms',
          ok: longest <= 200,
        },
      ];
    },
  );
}

runDirectly(import.meta.url, 'analysis', 'Issue 10: analysis with 100,000 batches', run);
