/**
 * Issue 11, Excel export. (a) The server's `format=xlsx` of 10,000 and of 100,000 batches, each streamed and
 * discarded by this client while the app server's RSS is sampled every 50 ms: the peak growth of the two side
 * by side shows whether memory grows with the rows (it should not: rows are committed as they are written).
 * (b) The browser's Excel export of 100,000 rows (exceljs in the page): the time from the click to the
 * download, the browser's peak RSS growth meanwhile, and whether the tab still answers afterwards.
 * Ports 4620–4629.
 */
import { launchChromium, signedInContext } from './support/browser';
import { runDirectly } from './support/main';
import { cpuSeconds, rssBytes, sampleRss, treeRssBytes } from './support/memory';
import { signIn, startBenchApp, startBenchSandbox, type BenchApp, type Sandbox } from './support/stack';
import { fmtBytes, fmtMs, median, type BenchResult } from './support/stats';
import { writerHeap } from './support/xlsx-writer-heap';

const SIZES = [10_000, 100_000];
const PORTS = { sandbox: [4620, 4621], app: [4622, 4623] };
const RUN_TIMEOUT_MS = 300_000;
/** PK\x05\x06: the end of a zip's central directory, so the workbook was finished, not cut off. */
const ZIP_END = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/** Reads a workbook download to its end (keeping it when asked), and says whether it was whole. */
export async function readXlsxExport(
  url: string,
  cookie: string,
  keep = false,
): Promise<{ ms: number; bytes: number; whole: boolean; file?: Buffer }> {
  const started = performance.now();
  const response = await fetch(url, {
    headers: { cookie, 'accept-encoding': 'identity' },
    signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
  });
  if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let tail = Buffer.alloc(0);
  const kept: Buffer[] = [];
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (keep) kept.push(Buffer.from(chunk));
    tail = Buffer.concat([tail, Buffer.from(chunk)]).subarray(-128);
  }
  return {
    ms: performance.now() - started,
    bytes,
    whole: tail.includes(ZIP_END),
    file: keep ? Buffer.concat(kept) : undefined,
  };
}

async function settledRss(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 1000));
  const sampler = sampleRss(pid, 50);
  await new Promise((r) => setTimeout(r, 1000));
  return median(sampler.stop().samples);
}

type Stack = { sandbox: Sandbox; app: BenchApp; cookie: string };

async function withStack<T>(i: number, batches: number, work: (stack: Stack) => Promise<T>): Promise<T> {
  const sandbox = await startBenchSandbox({
    port: PORTS.sandbox[i],
    batches,
    pageSize: 100,
    latencyMs: 0,
    seed: 'bench',
  });
  let app: BenchApp | undefined;
  try {
    app = await startBenchApp({ port: PORTS.app[i]!, sandboxUrl: sandbox.url });
    return await work({ sandbox, app, cookie: await signIn(app.url) });
  } finally {
    await app?.stop();
    await sandbox.close();
  }
}

/** Every column but the analysis links (exceljs keeps each hyperlink until the sheet ends). */
const NO_LINKS = 'date,name,crop,germination,target,usable,cells,cv,size,images,warnings,germinated,scanner,comment';

async function serverRun({ app, cookie }: Stack, columns?: string) {
  const url = `${app.url}/api/batches/export?format=xlsx&zone=Europe/Berlin${columns ? `&columns=${columns}` : ''}`;
  await readXlsxExport(`${url}&end_date=2025-01-01T00:00:00Z`, cookie); // warm-up: compiled, first allocations made
  const baseline = await settledRss(app.pid);
  const sampler = sampleRss(app.pid, 50);
  const cpu = cpuSeconds(app.pid);
  let peak = 0;
  const reading = await readXlsxExport(url, cookie).finally(() => (peak = sampler.stop().peak));
  return { ...reading, baseline, growth: peak - baseline, cpu: cpuSeconds(app.pid) - cpu };
}

/** The browser's own memory: every process this bench started, less the app server and this process (the sandbox). */
const browserRss = (app: BenchApp) => treeRssBytes(process.pid) - treeRssBytes(app.pid) - rssBytes(process.pid);

async function browserRun({ app, cookie, sandbox }: Stack) {
  const total = sandbox.organisations[0]!.batches.length;
  const browser = await launchChromium();
  try {
    const context = await signedInContext(browser, app.url, cookie, { width: 1366, height: 900 });
    const page = await context.newPage();
    await page.goto(`${app.url}/batches`);
    await page
      .getByRole('status')
      .first()
      .filter({ hasText: `${total.toLocaleString('en-GB')} batches` })
      .waitFor({ timeout: 180_000 });
    await page.waitForTimeout(3000);
    const baseline = browserRss(app);
    const samples: number[] = [];
    const timer = setInterval(() => samples.push(browserRss(app)), 100);
    const started = performance.now();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: RUN_TIMEOUT_MS }),
      page.getByRole('menuitem', { name: 'Excel (.xlsx)' }).click(),
    ]);
    const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
    const ms = performance.now() - started;
    clearInterval(timer);
    const alive = (await page.evaluate(() => 1 + 1, undefined)) === 2;
    return {
      ms,
      bytes: bytes.length,
      whole: bytes.subarray(-128).includes(ZIP_END),
      growth: Math.max(...samples) - baseline,
      alive,
      total,
    };
  } finally {
    await browser.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const server: Awaited<ReturnType<typeof serverRun>>[] = [];
  let inBrowser: Awaited<ReturnType<typeof browserRun>> | null = null;
  let noLinks: Awaited<ReturnType<typeof serverRun>> | null = null;
  for (const [i, batches] of SIZES.entries()) {
    await withStack(i, batches, async (stack) => {
      server.push(await serverRun(stack));
      if (batches !== SIZES.at(-1)) return;
      noLinks = await serverRun(stack, NO_LINKS);
      if (process.env.BENCH_XLSX_BROWSER !== '0') inBrowser = await browserRun(stack);
    });
  }
  const [small, large] = server as [(typeof server)[0], (typeof server)[0]];
  const heap = {
    small: await writerHeap(SIZES[0]!),
    large: await writerHeap(SIZES.at(-1)!),
    bare: await writerHeap(SIZES.at(-1)!, false),
  };
  const held = (h: { start: number; peak: number }) => h.peak - h.start;
  const b = inBrowser as Awaited<ReturnType<typeof browserRun>> | null;
  const results: BenchResult[] = [
    {
      target: '11a server xlsx memory: peak RSS growth, 10,000 vs 100,000 batches',
      figure: `${fmtBytes(small.growth)} vs ${fmtBytes(large.growth)} (${(large.growth / Math.max(1, small.growth)).toFixed(2)}× for 10× the rows)`,
      goal: '< 64 MB at 100,000, and not 10× the 10,000 figure',
      ok: large.growth < 64 * 2 ** 20 && large.growth < 3 * Math.max(small.growth, 8 * 2 ** 20),
      detail: `baselines ${fmtBytes(small.baseline)} and ${fmtBytes(large.baseline)}; sandbox page 100, latency 0 ms; app process RSS every 50 ms`,
    },
    {
      target: '11a′ the same at 100,000 without the Analysis column (no hyperlinks)',
      figure: noLinks ? fmtBytes((noLinks as { growth: number }).growth) : '—',
      goal: 'what the hyperlinks cost',
      ok: true,
    },
    {
      target: '11a″ the workbook writer: heap and Buffers held after a forced GC, 10,000 vs 100,000 batches',
      figure: `${fmtBytes(held(heap.small))} vs ${fmtBytes(held(heap.large))} (without links ${fmtBytes(held(heap.bare))})`,
      goal: "< 64 MB at 100,000 (what stays: the hyperlink list, ~90 B a link, and the links' targets until the sheet ends, ~100 B)",
      ok: held(heap.large) < 64 * 2 ** 20,
      detail:
        "lib/export/xlsx.ts through exceljs's streaming WorkbookWriter into a sink, paced as the server paces it (lib/export/xlsx-streaming.ts), in this process (--expose-gc), heap + arrayBuffers sampled every 10,000 rows",
    },
    {
      target: '11b server xlsx time and size',
      figure: `${fmtMs(small.ms)} (${fmtBytes(small.bytes)}) vs ${fmtMs(large.ms)} (${fmtBytes(large.bytes)}); app CPU ${small.cpu.toFixed(1)} s vs ${large.cpu.toFixed(1)} s`,
      goal: 'a whole workbook each',
      ok: small.whole && large.whole,
    },
  ];
  if (b) {
    results.push({
      target: `11c browser xlsx of ${b.total.toLocaleString('en')} rows: click to download`,
      figure: `${fmtMs(b.ms)}, browser RSS +${fmtBytes(b.growth)}, ${fmtBytes(b.bytes)}`,
      goal: '≤ 30 s, the tab survives',
      ok: b.ms <= 30_000 && b.alive && b.whole,
      detail: `exceljs's in-memory Workbook in the page (loaded on demand); tab answers afterwards: ${b.alive}; Chromium's processes' RSS every 100 ms`,
    });
  }
  return results;
}

runDirectly(import.meta.url, 'xlsx-export', 'Issue 11: Excel export', run);
