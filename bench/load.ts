/**
 * Issue 5, targets 1 and 2: loading a large range in the dashboard against a plain client that walks the
 * v2 cursor one page after another, in the same run against the same sandbox (20,000 batches, pages of
 * 100, 40 ms per request). Also checks that the fast path returns exactly the batches of sequential paging.
 */
import type { Browser } from '@playwright/test';
import { parseStreamLine } from '../lib/contract';
import { signedInContext, withBrowserStack } from './support/browser';
import { runDirectly } from './support/main';
import type { Sandbox } from './support/stack';
import { median, fmtMs, type BenchResult } from './support/stats';
import { installMarks, readMarks } from './support/page-marks';

const BATCHES = Number(process.env.BENCH_LOAD_BATCHES ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const APP_PORT = 4651;

/** The plain client: authenticate, then follow next_token until it is null. */
async function sequential(sandbox: Sandbox): Promise<{ ms: number; ids: string[]; pages: number }> {
  const started = performance.now();
  const auth = await fetch(`${sandbox.url}/v2/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' }),
  });
  const { access_token } = (await auth.json()) as { access_token: string };
  const ids: string[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const url = new URL(`${sandbox.url}/v2/batches`);
    if (next) url.searchParams.set('next_token', next);
    const response = await fetch(url, { headers: { authorization: `Bearer ${access_token}` } });
    if (!response.ok) throw new Error(`sequential page ${pages}: ${response.status}`);
    const body = (await response.json()) as { data: { batch_id: string }[]; next_token: string | null };
    for (const b of body.data) ids.push(b.batch_id);
    next = body.next_token;
    pages++;
  } while (next);
  return { ms: performance.now() - started, ids, pages };
}

/** One upstream page, directly: the unit target 2 is measured against. */
async function onePage(sandbox: Sandbox): Promise<number> {
  const auth = await fetch(`${sandbox.url}/v2/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' }),
  });
  const { access_token } = (await auth.json()) as { access_token: string };
  const started = performance.now();
  await (await fetch(`${sandbox.url}/v2/batches`, { headers: { authorization: `Bearer ${access_token}` } })).json();
  return performance.now() - started;
}

/** Navigation start to the first row on screen and to the final count in the status, in a fresh context. */
async function dashboard(browser: Browser, appUrl: string, cookie: string, path: string, expectCount?: number) {
  const context = await signedInContext(browser, appUrl, cookie, { width: 1280, height: 900 });
  const page = await context.newPage();
  await installMarks(page);
  await page.goto(appUrl + path);
  const status = page.getByRole('status').first();
  const expected = expectCount === undefined ? /^[\d,]+ batch(es)?$/ : new RegExp(`^${expectCount.toLocaleString('en-US')} batches$`);
  await status.filter({ hasText: expected }).waitFor({ timeout: 120_000 });
  const marks = await readMarks(page);
  await context.close();
  return marks;
}

/** The same range through the stream endpoint, to compare batch for batch with sequential paging. */
async function streamedIds(appUrl: string, cookie: string): Promise<string[]> {
  const response = await fetch(`${appUrl}/api/batches/stream`, { headers: { cookie } });
  const ids: string[] = [];
  for (const text of (await response.text()).split('\n')) {
    if (!text) continue;
    const line = parseStreamLine(text);
    if ('error' in line) throw new Error(`stream failed: ${JSON.stringify(line.error)}`);
    if ('batches' in line) for (const b of line.batches) ids.push(b.batch_id);
  }
  return ids;
}

export function run(): Promise<BenchResult[]> {
  const sandboxOptions = { batches: BATCHES, pageSize: 100, latencyMs: 40, seed: 'bench' };
  return withBrowserStack({ sandbox: sandboxOptions, appPort: APP_PORT }, async ({ sandbox, appUrl, browser, cookie, total }) => {
    // One quiet day of the newest week: a range that fits in a single page.
    const day = sandbox.organisations[0]!.batches.at(-1)!.batch_creation_date.slice(0, 10);
    const smallPath = `/batches?from=${day}&to=${day}&tz=utc`;

    // Warm-up: compiled routes, browser cache, connections, token.
    await dashboard(browser, appUrl, cookie, '/batches', total);
    await dashboard(browser, appUrl, cookie, smallPath);

    const seq: number[] = [], fast: number[] = [], firstBig: number[] = [], firstSmall: number[] = [], page: number[] = [];
    let pages = 0;
    let same = true;
    for (let i = 0; i < RUNS; i++) {
      const s = await sequential(sandbox);
      pages = s.pages;
      seq.push(s.ms);
      const big = await dashboard(browser, appUrl, cookie, '/batches', total);
      fast.push(big.done);
      if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(big));
      firstBig.push(big.firstRow);
      firstSmall.push((await dashboard(browser, appUrl, cookie, smallPath)).firstRow);
      page.push(await onePage(sandbox));
      if (i === 0) {
        const streamed = await streamedIds(appUrl, cookie);
        const a = [...streamed].sort(), b = [...s.ids].sort();
        same = streamed.length === new Set(streamed).size && a.length === b.length && a.every((id, k) => id === b[k]);
      }
    }
    const ratio = median(fast.map((f, i) => f / seq[i]!));
    const firstRatio = median(firstBig.map((f, i) => f / firstSmall[i]!));
    return [
      {
        target: `1. ${total.toLocaleString('en-US')} batches, dashboard vs sequential cursor walk`,
        figure: `${ratio.toFixed(2)}× (${fmtMs(median(fast))} vs ${fmtMs(median(seq))})`,
        goal: '≤ 0.35×',
        ok: ratio <= 0.35 && same,
        detail: `${pages} sequential pages; medians of ${RUNS} runs, ratio per run; same batches, none twice: ${same ? 'yes' : 'NO'}`,
      },
      {
        target: '2. first rows, whole range vs a one-page range',
        figure: `${firstRatio.toFixed(2)}× (${fmtMs(median(firstBig))} vs ${fmtMs(median(firstSmall))})`,
        goal: '≤ 2×',
        ok: firstRatio <= 2,
        detail: `one upstream page alone: ${fmtMs(median(page))}; times from navigation start to the first table row`,
      },
    ];
  });
}

runDirectly(import.meta.url, 'load', 'Targets 1-2: loading a large range', run);
