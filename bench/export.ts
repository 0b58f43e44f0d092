/**
 * Target 5, export: `GET /api/batches/export` of 100,000 batches, streamed and discarded by this client, while
 * the app server's RSS is sampled every 50 ms; side by side with a plain client walking the v2 cursor directly
 * against the same sandbox for the same range (token, then page after page, each body parsed), alternately.
 * The ratio export / direct walk close to 1 means the export goes as fast as the service lets it.
 */
import { runDirectly } from './support/main';
import { sampleRss } from './support/memory';
import { freeBenchPort, sandboxToken, signIn, startBenchApp, startBenchSandbox, type Sandbox } from './support/stack';
import { fmtBytes, fmtMs, median, type BenchResult } from './support/stats';

const BATCHES = Number(process.env.BENCH_EXPORT_BATCHES ?? 100_000);
/** Sandbox latencies to run at, each with its number of runs: 0 ms shows our own cost, 20 ms a real service. */
const PHASES = (process.env.BENCH_EXPORT_PHASES ?? '0:3,20:1').split(',').map((p) => p.split(':').map(Number) as [number, number]);
const RUN_TIMEOUT_MS = 180_000;
const QUOTE = 0x22;
const LF = 0x0a;
const COMMA = 0x2c;

type Reading = { ms: number; records: number; lines: number; bytes: number; ids: Set<string> };

/**
 * Counts what streams by without keeping it: records (LF outside quotes), lines (every LF) and the distinct
 * first-column values. Native indexOf scans, so that this client takes little CPU from the in-process sandbox.
 */
class CsvCounter {
  records = 0;
  lines = 0;
  bytes = 0;
  ids = new Set<string>();
  private quoted = false;
  private inFirst = true;
  private first = '';

  push(chunk: Buffer) {
    this.bytes += chunk.length;
    let p = 0;
    while (p < chunk.length) {
      if (this.quoted) {
        const q = chunk.indexOf(QUOTE, p);
        const end = q === -1 ? chunk.length : q;
        this.countLines(chunk, p, end);
        if (this.inFirst) this.first += chunk.toString('latin1', p, end);
        if (q === -1) return;
        this.quoted = false;
        p = q + 1;
        continue;
      }
      const next = [chunk.indexOf(QUOTE, p), chunk.indexOf(LF, p), this.inFirst ? chunk.indexOf(COMMA, p) : -1].filter((i) => i !== -1);
      if (next.length === 0) {
        if (this.inFirst) this.first += chunk.toString('latin1', p);
        return;
      }
      const at = Math.min(...next);
      if (this.inFirst) this.first += chunk.toString('latin1', p, at);
      const byte = chunk[at];
      if (byte === QUOTE) this.quoted = true;
      else if (byte === COMMA) {
        this.inFirst = false;
        this.ids.add(this.first);
      } else {
        this.lines++;
        this.records++;
        this.inFirst = true;
        this.first = '';
      }
      p = at + 1;
    }
  }

  private countLines(chunk: Buffer, from: number, to: number) {
    for (let i = chunk.indexOf(LF, from); i !== -1 && i < to; i = chunk.indexOf(LF, i + 1)) this.lines++;
  }
}

async function readExport(url: string, cookie: string): Promise<Reading> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie, 'accept-encoding': 'identity' }, signal: AbortSignal.timeout(RUN_TIMEOUT_MS) });
  if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status} ${await response.text()}`);
  const counter = new CsvCounter();
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) counter.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  const { records, lines, bytes, ids } = counter;
  return { ms: performance.now() - started, records, lines, bytes, ids };
}

/** The reference: what any client gets from the service alone, one cursor page after the other. */
async function walkDirect(sandbox: Sandbox): Promise<{ ms: number; batches: number }> {
  const started = performance.now();
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  const headers = { authorization: `Bearer ${await sandboxToken(sandbox.url)}`, 'accept-encoding': 'identity' };
  let batches = 0;
  let next: string | null = null;
  do {
    if (Date.now() > deadline) throw new Error('direct walk: over the time budget');
    const url: string = `${sandbox.url}/v2/batches${next ? `?next_token=${encodeURIComponent(next)}` : ''}`;
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`direct walk: ${response.status}`);
    const page = (await response.json()) as { data: unknown[]; next_token: string | null };
    batches += page.data.length;
    next = page.next_token;
  } while (next !== null);
  return { ms: performance.now() - started, batches };
}

const signed = (bytes: number) => `${bytes < 0 ? '−' : '+'}${fmtBytes(Math.abs(bytes))}`;

async function settledRss(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 1000));
  const sampler = sampleRss(pid, 50);
  await new Promise((r) => setTimeout(r, 1000));
  return median(sampler.stop().samples);
}

export async function run(): Promise<BenchResult[]> {
  const sandbox = await startBenchSandbox({ batches: BATCHES, pageSize: 100, latencyMs: 0 });
  const app = await startBenchApp({ port: await freeBenchPort(), sandboxUrl: sandbox.url }).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  const results: BenchResult[] = [];
  try {
    const cookie = await signIn(app.url);
    const exportUrl = `${app.url}/api/batches/export`;
    // Warm-up: the export path compiled and its first allocations made before the baseline is read.
    await readExport(`${exportUrl}?start_date=2025-01-01T00:00:00Z&end_date=2025-03-01T00:00:00Z`, cookie);
    await walkDirect(sandbox);

    for (const [latencyMs, runs] of PHASES) {
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs }) });
      const exports: (Reading & { growth: number; baseline: number })[] = [];
      const walks: number[] = [];
      for (let i = 0; i < runs; i++) {
        walks.push((await walkDirect(sandbox)).ms);
        const baseline = await settledRss(app.pid);
        const sampler = sampleRss(app.pid, 50);
        let peak = 0;
        const reading = await readExport(exportUrl, cookie).finally(() => (peak = sampler.stop().peak));
        exports.push({ ...reading, baseline, growth: peak - baseline });
      }
      const exportMs = median(exports.map((e) => e.ms));
      const walkMs = median(walks);
      const ratio = exportMs / walkMs;
      const worst = Math.max(...exports.map((e) => e.growth));
      const complete = exports.every((e) => e.records === BATCHES + 1 && e.ids.size === BATCHES + 1);
      const runsText = `${runs} run${runs > 1 ? 's' : ''}${runs > 1 ? ', medians' : ''}`;
      const conditions = `sandbox ${BATCHES.toLocaleString('en')} batches, page 100, latency ${latencyMs} ms, ${runsText}`;
      results.push(
        {
          target: `5a export memory, latency ${latencyMs} ms (peak RSS growth)`,
          figure: `${signed(worst)} (baseline ${fmtBytes(median(exports.map((e) => e.baseline)))})`,
          goal: '< 64 MB',
          ok: worst < 64 * 1024 * 1024,
          detail: `${conditions}; worst run shown, every run: ${exports.map((e) => signed(e.growth)).join(', ')}; app process RSS every 50 ms`,
        },
        {
          target: `5b export pace, latency ${latencyMs} ms (export / direct walk)`,
          figure: `${ratio.toFixed(2)}× (${fmtMs(exportMs)} vs ${fmtMs(walkMs)})`,
          goal: '≤ 1.2×',
          ok: ratio <= 1.2,
          detail: `${conditions}; ${fmtBytes(median(exports.map((e) => e.bytes)))} of CSV; the direct walk fetches and parses every v2 page in turn`,
        },
        {
          target: `5c export complete, latency ${latencyMs} ms`,
          figure: `${exports.map((e) => `${e.records.toLocaleString('en')} records`).join(', ')}`,
          goal: `${(BATCHES + 1).toLocaleString('en')} (header + batches), ids unique`,
          ok: complete,
          detail: `lines (LF) ${exports.map((e) => e.lines.toLocaleString('en')).join(', ')}; distinct first-column values ${exports.map((e) => e.ids.size.toLocaleString('en')).join(', ')}`,
        },
      );
    }
    return results;
  } finally {
    await app.stop();
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'export', 'Target 5: export', run);
