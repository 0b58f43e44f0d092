/**
 * Issue 16, target 2: reopening a range after a reload from the browser's encrypted cache, against loading it
 * cold from the service, side by side in one run (20,000 batches, pages of 100, 40 ms per request).
 *
 * Each run is a fresh browser context (an empty cache): the cold load, then (once the range is in the cache)
 * a reload of the same page. Two figures for each, in the page's own clock:
 * - from navigation start to the status reading "20,000 batches";
 * - from the explorer's request for the range to it: the start of its first request for the range (the cache's
 *   key or the stream, started together) to the count.
 * The goal is on the second: it is the load the cache replaces. The first also holds the page's own start
 * (HTML, scripts, hydration), the same with or without a cache, which no cache of ranges can shorten.
 */
import type { Page } from '@playwright/test';
import { cachedEntries } from '../tests/helpers/range-cache';
import { signedInContext, withBrowserStack } from './support/browser';
import { runDirectly } from './support/main';
import { installMarks, readMarks } from './support/page-marks';
import { fmtMs, median, type BenchResult } from './support/stats';

const BATCHES = Number(process.env.BENCH_REOPEN_BATCHES ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SANDBOX_PORT = 4680;
const APP_PORT = 4681;

type Times = { fromNavigation: number; fromRequest: number; text: string; steps?: Record<string, number> };
type Run = { cold: Times; warm: Times; shownAsOf: boolean };

/** The marks of the page just loaded: when its range was first asked for, and when the status read a count. */
async function timesOf(page: Page): Promise<Times> {
  const marks = await readMarks(page);
  const requested = await page.evaluate(() =>
    Math.min(
      ...performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/batches/stream') || e.name.includes('/api/session/cache-key'))
        .map((e) => e.startTime),
    ),
  );
  // The reopening's own marks (components/explorer/range/range-cache-browser.ts), from the range's request on.
  const steps = await page.evaluate(() =>
    Object.fromEntries(
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('range-cache:'))
        .map((m) => [m.name.slice(12), m.startTime]),
    ),
  );
  for (const name of Object.keys(steps)) steps[name] = Math.round(steps[name]! - requested);
  return { fromNavigation: marks.done, fromRequest: marks.done - requested, text: marks.doneText, steps };
}

async function waitForCount(page: Page, total: number) {
  const expected = new RegExp(`^${total.toLocaleString('en-US')} batches$`);
  await page.getByRole('status').first().filter({ hasText: expected }).waitFor({ timeout: 120_000 });
}

/** Polls (bounded) until the range is in the browser's cache: the cache is written in an idle moment after a load. */
async function waitForCacheEntry(page: Page, count: number) {
  for (let i = 0; i < 300; i++) {
    const kept = Math.max(0, ...(await cachedEntries(page)).map((e) => e.count));
    if (kept === count) return;
    await page.waitForTimeout(100);
  }
  throw new Error('the range never reached the cache');
}

export function run(): Promise<BenchResult[]> {
  const sandboxOptions = { batches: BATCHES, pageSize: 100, latencyMs: 40, seed: 'bench', port: SANDBOX_PORT };
  return withBrowserStack(
    { sandbox: sandboxOptions, appPort: APP_PORT },
    async ({ appUrl, browser, cookie, total }) => {
      const once = async (): Promise<Run> => {
        const context = await signedInContext(browser, appUrl, cookie, { width: 1280, height: 900 });
        try {
          const page = await context.newPage();
          await installMarks(page);
          await page.goto(`${appUrl}/batches`);
          await waitForCount(page, total);
          const cold = await timesOf(page);
          await waitForCacheEntry(page, total);
          await page.reload();
          await waitForCount(page, total);
          const warm = await timesOf(page);
          const asOf = await page.getByTestId('as-of').count();
          // Let the background check finish before the next run (it would share the two cores with it).
          await page.getByTestId('as-of').waitFor({ state: 'detached', timeout: 120_000 });
          return { cold, warm, shownAsOf: asOf > 0 };
        } finally {
          await context.close();
        }
      };
      await once(); // warm-up: compiled routes, connections, the service's token
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await once();
        if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(r));
        runs.push(r);
      }
      const med = (pick: (r: Run) => number) => median(runs.map(pick));
      const ratioRequest = median(runs.map((r) => r.warm.fromRequest / r.cold.fromRequest));
      const ratioNavigation = median(runs.map((r) => r.warm.fromNavigation / r.cold.fromNavigation));
      const allAsOf = runs.every((r) => r.shownAsOf);
      const counts = `${total.toLocaleString('en-US')} batches`;
      return [
        {
          target: `2. reopening ${counts} after a reload, from the cache vs cold (range request → count)`,
          figure: `${ratioRequest.toFixed(3)}× (${fmtMs(med((r) => r.warm.fromRequest))} vs ${fmtMs(med((r) => r.cold.fromRequest))})`,
          goal: '≤ 0.1×',
          ok: ratioRequest <= 0.1 && allAsOf,
          detail: `from the explorer's first request for the range (cache key or stream) to the status reading "${counts}"; shown "as of" while checked: ${allAsOf ? 'yes' : 'NO'}; medians of ${RUNS}, ratio per run; 40 ms per request, pages of 100`,
        },
        {
          target: '2. the same, from navigation start',
          figure: `${ratioNavigation.toFixed(3)}× (${fmtMs(med((r) => r.warm.fromNavigation))} vs ${fmtMs(med((r) => r.cold.fromNavigation))})`,
          goal: 'reported',
          ok: true,
          detail: "includes the page's own start (HTML, scripts, hydration), the same with or without the cache",
        },
      ];
    },
  );
}

runDirectly(import.meta.url, 'reopen', 'Issue 16 target 2: reopening from the cache', run);
