/**
 * Target 6a, what the browser downloads: every script of the signed-in `/batches` page (demo sandbox, 3,000
 * batches) loaded in Chromium until the charts are drawn and the network is idle. Sizes are each body gzipped
 * here at level 9 (the served, compressed size is printed beside it). "Before the lazy parts" is every script
 * requested before the table's first row was on screen: what it takes to show the batches. What comes later
 * (the charts when scrolled to, and the parts preloaded in idle moments: print, grouped summary, targets
 * editor, detail dialog) is lazy; "total" adds them. Marking the boundary at the first chunk holding recharts
 * instead mislabelled the explorer's own chunk whenever it was asked for a millisecond after a shared chunk.
 */
import { gzipSync } from 'node:zlib';
import { launchChromium, signedInContext } from './support/browser';
import { installMarks, readMarks } from './support/page-marks';
import { runDirectly } from './support/main';
import { freeBenchPort, signIn, startBenchApp, startBenchSandbox } from './support/stack';
import { fmtBytes, type BenchResult } from './support/stats';

const GOAL_BYTES = 200 * 1024;
const WAIT_MS = 60_000;
/** What a chunk holds, to say what to cut: markers of the libraries that weigh. */
const MARKERS: [string, RegExp][] = [
  ['recharts', /recharts-/],
  ['react-dom', /react-dom|__reactFiber/],
  ['next runtime', /__NEXT_|next-router|__next_f/],
  ['zod', /_zod\b|ZodError/],
  ['tanstack', /tanstack|QueryClient/],
  ['redux/immer', /immer|redux/i],
];

export type Script = {
  url: string;
  start: number;
  served: number;
  raw: number;
  gzip: number;
  charts: boolean;
  initial: boolean;
  holds: string[];
};

export async function collectScripts(
  appUrl: string,
  cookie: string,
): Promise<{ scripts: Script[]; htmlGzip: number; chartsDrawn: boolean }> {
  const browser = await launchChromium();
  try {
    const context = await signedInContext(browser, appUrl, cookie);
    const page = await context.newPage();
    await installMarks(page);
    const bodies = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        bodies.set(
          response.url(),
          response.body().catch(() => Buffer.alloc(0)),
        );
    });
    const document = await page.goto(`${appUrl}/batches`);
    if (!document || document.status() !== 200 || !page.url().endsWith('/batches'))
      throw new Error(`/batches did not open signed in (${page.url()})`);
    const html = await document.body();
    const chartsDrawn = await page
      .waitForSelector('.recharts-surface', { timeout: WAIT_MS })
      .then(() => true)
      .catch(() => false);
    await page.waitForLoadState('networkidle', { timeout: WAIT_MS });
    const timing = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => ({ url: e.name, start: e.startTime, served: (e as PerformanceResourceTiming).encodedBodySize })),
    );
    const initialSrcs = new Set(
      [...html.toString().matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => new URL(m[1]!, appUrl).href),
    );
    const scripts: Script[] = [];
    for (const [url, body] of bodies) {
      const raw = await body;
      const text = raw.toString('utf8');
      const t = timing.find((e) => e.url === url);
      scripts.push({
        url,
        start: t?.start ?? Number.POSITIVE_INFINITY,
        served: t?.served ?? 0,
        raw: raw.length,
        gzip: gzipSync(raw, { level: 9 }).length,
        charts: false,
        initial: initialSrcs.has(url),
        holds: MARKERS.filter(([, re]) => re.test(text)).map(([n]) => n),
      });
    }
    const { firstRow } = await readMarks(page);
    if (firstRow === undefined) throw new Error('no table row appeared');
    for (const s of scripts) s.charts = s.start > firstRow;
    return {
      scripts: scripts.sort((a, b) => a.start - b.start),
      htmlGzip: gzipSync(html, { level: 9 }).length,
      chartsDrawn,
    };
  } finally {
    await browser.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const sandbox = await startBenchSandbox({});
  const app = await startBenchApp({ port: await freeBenchPort(), sandboxUrl: sandbox.url }).catch(
    async (error: unknown) => {
      await sandbox.close();
      throw error;
    },
  );
  try {
    const { scripts, htmlGzip, chartsDrawn } = await collectScripts(app.url, await signIn(app.url));
    const sum = (list: Script[], key: 'gzip' | 'served' | 'raw') => list.reduce((n, s) => n + s[key], 0);
    const before = scripts.filter((s) => !s.charts);
    const charts = scripts.filter((s) => s.charts);
    const chartsInHtml = scripts.some((s) => s.initial && s.holds.includes('recharts'));
    if (process.env.BENCH_VERBOSE) {
      for (const s of scripts)
        console.log(
          `${s.charts ? 'lazy ' : 'first'} ${s.start.toFixed(0).padStart(6)} ms ${fmtBytes(s.gzip).padStart(9)} ${s.url.split('/').pop()} ${s.holds.join(', ')}`,
        );
    }
    const largest = [...scripts]
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 5)
      .map(
        (s) =>
          `${s.url.split('/').pop()} ${fmtBytes(s.gzip)}${s.charts ? ' (charts)' : ''}${s.holds.length ? ` [${s.holds.join(', ')}]` : ''}`,
      );
    const conditions = `signed-in /batches, demo sandbox 3,000 batches, Chromium, gzip level 9 per script`;
    return [
      {
        target: '16.5 JS before the lazy parts (gzip)',
        figure: `${fmtBytes(sum(before, 'gzip'))} in ${before.length} scripts`,
        goal: '≤ 200 kB',
        ok: sum(before, 'gzip') <= GOAL_BYTES,
        detail:
          `${conditions}; as served ${fmtBytes(sum(before, 'served'))}, uncompressed ${fmtBytes(sum(before, 'raw'))}; HTML with its inline ` +
          `payload ${fmtBytes(htmlGzip)}${chartsInHtml ? '; recharts is in the HTML scripts: the charts are NOT lazy' : ''}`,
      },
      {
        target: '16.5 JS total with the lazy parts (gzip)',
        figure: `${fmtBytes(sum(scripts, 'gzip'))} in ${scripts.length} scripts (lazy ${fmtBytes(sum(charts, 'gzip'))})`,
        goal: 'charts lazy, drawn',
        ok: chartsDrawn && !chartsInHtml && charts.length > 0,
        detail: `${chartsDrawn ? 'charts drawn' : 'charts NOT drawn within 60 s'}; largest: ${largest.join('; ')}`,
      },
    ];
  } finally {
    await app.stop();
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'bundle', 'Target 6a: JavaScript for /batches', run);
