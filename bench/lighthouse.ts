/**
 * Target 6b, Lighthouse 12 performance score of the signed-in `/batches` page of the demo (sandbox defaults:
 * 3,000 batches), Lighthouse's default settings (mobile, simulated throttling), the session cookie passed as an
 * extra header. Median of 3 runs, each in a fresh Chromium. When the score misses, what costs the most.
 */
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium';
import { runDirectly } from './support/main';
import { freeBenchPort, signIn, startBenchApp, startBenchSandbox } from './support/stack';
import { fmtMs, median, type BenchResult } from './support/stats';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const METRICS = [
  ['FCP', 'first-contentful-paint'],
  ['LCP', 'largest-contentful-paint'],
  ['TBT', 'total-blocking-time'],
  ['CLS', 'cumulative-layout-shift'],
  ['SI', 'speed-index'],
] as const;

type Audit = {
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  details?: { items?: Record<string, unknown>[] };
};
type Lhr = {
  categories: { performance: { score: number | null } };
  audits: Record<string, Audit>;
  runWarnings: string[];
};

async function once(url: string, cookie: string): Promise<Lhr> {
  const { default: lighthouse } = await import('lighthouse');
  const userDataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_ARGS,
    port: await freeBenchPort(),
    logLevel: 'silent',
    userDataDir,
  });
  // Chromium keeps its singleton socket in a directory of its own under /tmp, left behind when it is killed.
  let singletonDir: string | undefined;
  try {
    singletonDir = dirname(readlinkSync(join(userDataDir, 'SingletonSocket')));
  } catch {
    // no singleton socket: nothing to clean
  }
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      extraHeaders: { Cookie: cookie },
    });
    if (!result) throw new Error('lighthouse returned nothing');
    const lhr = result.lhr as unknown as Lhr;
    const finalUrl = (result.lhr as unknown as { finalDisplayedUrl?: string }).finalDisplayedUrl ?? '';
    // The explorer writes the viewer's zone into the address (`?tz=…`) once it runs: still /batches, not sign-in.
    if (new URL(finalUrl || 'http://x/').pathname !== '/batches')
      throw new Error(`lighthouse did not stay on /batches (ended on ${finalUrl}): is the cookie accepted?`);
    return lhr;
  } finally {
    chrome.kill();
    for (const dir of [userDataDir, singletonDir])
      if (dir?.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
  }
}

function fmtMetric(label: string, value: number): string {
  return label === 'CLS' ? value.toFixed(3) : fmtMs(value);
}

const file = (url: unknown) => String(url).split('/').pop();

/** What costs the most: the metrics that lose points, the LCP element and its delay, long tasks, JS by script. */
function costs(lhr: Lhr): string {
  const losing = METRICS.map(([label, id]) => ({ label, audit: lhr.audits[id]! }))
    .filter((m) => (m.audit.score ?? 1) < 0.9)
    .map((m) => `${m.label} ${m.audit.displayValue} (score ${m.audit.score})`);
  const lcpTables = (lhr.audits['largest-contentful-paint-element']?.details?.items ?? []) as {
    items?: Record<string, unknown>[];
  }[];
  const lcpNode = lcpTables[0]?.items?.[0]?.node as { snippet?: string; selector?: string } | undefined;
  const phases = (lcpTables[1]?.items ?? []).map((p) => `${p.phase} ${Math.round(Number(p.timing))} ms`);
  const longTasks = (lhr.audits['long-tasks']?.details?.items ?? [])
    .slice(0, 5)
    .map((t) => `${file(t.url)} ${Math.round(Number(t.duration))} ms`);
  const bootup = (lhr.audits['bootup-time']?.details?.items ?? [])
    .slice(0, 3)
    .map((i) => `${file(i.url)} ${Math.round(Number(i.scripting))} ms`);
  return [
    losing.length ? `losing points: ${losing.join(', ')}` : 'no metric below 0.9',
    lcpNode ? `LCP element ${lcpNode.snippet?.slice(0, 60)} (${lcpNode.selector}), ${phases.join(', ')}` : '',
    `longest tasks: ${longTasks.join(', ') || 'none'}`,
    `JS execution by script: ${bootup.join(', ') || 'n/a'}`,
    lhr.runWarnings.length ? `warnings: ${lhr.runWarnings.join(' | ').slice(0, 200)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

export async function run(): Promise<BenchResult[]> {
  process.env.CHROME_PATH = CHROMIUM_PATH;
  const sandbox = await startBenchSandbox({});
  const app = await startBenchApp({ port: await freeBenchPort(), sandboxUrl: sandbox.url }).catch(
    async (error: unknown) => {
      await sandbox.close();
      throw error;
    },
  );
  try {
    const cookie = await signIn(app.url);
    const runs: Lhr[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(`${app.url}/batches`, cookie));
    const scores = runs.map((r) => Math.round((r.categories.performance.score ?? 0) * 100));
    const score = median(scores);
    const medianRun = runs[scores.indexOf([...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)]!)]!;
    const metrics = METRICS.map(
      ([label, id]) => `${label} ${fmtMetric(label, median(runs.map((r) => r.audits[id]!.numericValue ?? 0)))}`,
    );
    return [
      {
        target: '16.5 Lighthouse performance, /batches',
        figure: `${score} (runs ${scores.join(', ')})`,
        goal: '≥ 98',
        ok: score >= 98,
        detail: `Lighthouse 12.8.2 defaults (mobile, simulated throttling), demo sandbox 3,000 batches, median of ${RUNS}; medians ${metrics.join(', ')}; ${costs(medianRun)}`,
      },
    ];
  } finally {
    await app.stop();
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'lighthouse', 'Target 6b: Lighthouse', run);
