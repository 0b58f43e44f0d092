/**
 * Issue 16 target 3 (and issue 5's target 5), export: `GET /api/batches/export` of 100,000 batches, streamed
 * and discarded by this client while the app server's RSS is sampled every 50 ms, side by side with a plain
 * client walking the v2 cursor sequentially against the same sandbox for the same range (token, then page
 * after page, each body parsed), alternately. The export fetches time parts in parallel and writes them in
 * creation order: its rows are checked id for id against the walk's (which the sandbox answers in creation
 * order). One xlsx export a phase is printed beside the CSV (its pace, memory and CPU).
 */
import { runDirectly } from './support/main';
import { unzipSync, strFromU8 } from 'fflate';
import { cpuSeconds, sampleRss } from './support/memory';
import { freeBenchPort, sandboxToken, signIn, startBenchApp, startBenchSandbox, type Sandbox } from './support/stack';
import { fmtBytes, fmtMs, median, type BenchResult } from './support/stats';
import { readXlsxExport } from './xlsx-export';

const BATCHES = Number(process.env.BENCH_EXPORT_BATCHES ?? 100_000);
/** Sandbox latencies to run at, each with its number of runs: 0 ms shows our own cost, 40 ms a real service (issue 16). */
const PHASES = (process.env.BENCH_EXPORT_PHASES ?? '0:1,40:2')
  .split(',')
  .map((p) => p.split(':').map(Number) as [number, number]);
const RUN_TIMEOUT_MS = 180_000;
const QUOTE = 0x22;
const LF = 0x0a;
const COMMA = 0x2c;

type Reading = { ms: number; records: number; lines: number; bytes: number; ids: string[]; cpu: number };

/**
 * Counts what streams by: records (LF outside quotes), lines (every LF), and keeps the first-column values
 * (the ids, in the file's order). Native indexOf scans, so that this client takes little CPU from the in-process sandbox.
 */
class CsvCounter {
  records = 0;
  lines = 0;
  bytes = 0;
  ids: string[] = [];
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
      const next = [chunk.indexOf(QUOTE, p), chunk.indexOf(LF, p), this.inFirst ? chunk.indexOf(COMMA, p) : -1].filter(
        (i) => i !== -1,
      );
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
        this.ids.push(this.first);
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

async function readExport(url: string, cookie: string, pid: number): Promise<Reading> {
  const started = performance.now();
  const cpu = cpuSeconds(pid);
  const response = await fetch(url, {
    headers: { cookie, 'accept-encoding': 'identity' },
    signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
  });
  if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status} ${await response.text()}`);
  const counter = new CsvCounter();
  for await (const chunk of response.body as AsyncIterable<Uint8Array>)
    counter.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  const { records, lines, bytes, ids } = counter;
  return { ms: performance.now() - started, records, lines, bytes, ids, cpu: cpuSeconds(pid) - cpu };
}

/** The reference: what any client gets from the service alone, one cursor page after the other. */
async function walkDirect(sandbox: Sandbox): Promise<{ ms: number; ids: string[]; links: string[] }> {
  const started = performance.now();
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  const headers = { authorization: `Bearer ${await sandboxToken(sandbox.url)}`, 'accept-encoding': 'identity' };
  const ids: string[] = [];
  const links: string[] = [];
  let next: string | null = null;
  do {
    if (Date.now() > deadline) throw new Error('direct walk: over the time budget');
    const url: string = `${sandbox.url}/v2/batches${next ? `?next_token=${encodeURIComponent(next)}` : ''}`;
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`direct walk: ${response.status}`);
    const page = (await response.json()) as {
      data: { batch_id: string; analysis_link: string | null }[];
      next_token: string | null;
    };
    for (const b of page.data) {
      ids.push(b.batch_id);
      if (b.analysis_link) links.push(b.analysis_link);
    }
    next = page.next_token;
  } while (next !== null);
  return { ms: performance.now() - started, ids, links };
}

const signed = (bytes: number) => `${bytes < 0 ? '−' : '+'}${fmtBytes(Math.abs(bytes))}`;

async function settledRss(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 1000));
  const sampler = sampleRss(pid, 50);
  await new Promise((r) => setTimeout(r, 1000));
  return median(sampler.stop().samples);
}

/** Rows of the workbook's data sheet (less its header) and its hyperlinks' targets in the order written. */
function xlsxRows(file: Buffer): { rows: number; links: string[] } {
  const zip = unzipSync(new Uint8Array(file), { filter: (f) => f.name.startsWith('xl/worksheets/') });
  const sheet = strFromU8(zip['xl/worksheets/sheet1.xml']!);
  const rels = strFromU8(zip['xl/worksheets/_rels/sheet1.xml.rels'] ?? new Uint8Array());
  const rows = (sheet.match(/<row /g) ?? []).length - 1;
  return { rows, links: [...rels.matchAll(/Target="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')) };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export async function run(): Promise<BenchResult[]> {
  const sandbox = await startBenchSandbox({ batches: BATCHES, pageSize: 100, latencyMs: 0 });
  const app = await startBenchApp({ port: await freeBenchPort(), sandboxUrl: sandbox.url }).catch(
    async (error: unknown) => {
      await sandbox.close();
      throw error;
    },
  );
  const results: BenchResult[] = [];
  try {
    const cookie = await signIn(app.url);
    const exportUrl = `${app.url}/api/batches/export`;
    const xlsxUrl = `${exportUrl}?format=xlsx&zone=Europe/Berlin`;
    // Warm-up: the export paths compiled and their first allocations made before the baseline is read.
    await readExport(`${exportUrl}?start_date=2025-01-01T00:00:00Z&end_date=2025-03-01T00:00:00Z`, cookie, app.pid);
    await readXlsxExport(`${xlsxUrl}&start_date=2025-01-01T00:00:00Z&end_date=2025-03-01T00:00:00Z`, cookie);
    const reference = await walkDirect(sandbox);

    for (const [latencyMs, runs] of PHASES) {
      await fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs }),
      });
      const exports: (Reading & { growth: number; baseline: number })[] = [];
      const walks: number[] = [];
      for (let i = 0; i < runs; i++) {
        const walk = await walkDirect(sandbox);
        walks.push(walk.ms);
        if (!sameList(walk.ids, reference.ids)) throw new Error('the sandbox answered a different walk');
        const baseline = await settledRss(app.pid);
        const sampler = sampleRss(app.pid, 50);
        let peak = 0;
        const reading = await readExport(exportUrl, cookie, app.pid).finally(() => (peak = sampler.stop().peak));
        exports.push({ ...reading, baseline, growth: peak - baseline });
      }
      // One workbook a phase: the same parallel walk, written with exceljs.
      const xBaseline = await settledRss(app.pid);
      const xSampler = sampleRss(app.pid, 50);
      let xPeak = 0;
      const xCpu = cpuSeconds(app.pid);
      const xlsx = await readXlsxExport(xlsxUrl, cookie, true).finally(() => (xPeak = xSampler.stop().peak));
      const xCpuS = cpuSeconds(app.pid) - xCpu;
      const xRows = xlsxRows(xlsx.file!);
      const xComplete = xlsx.whole && xRows.rows === BATCHES && sameList(xRows.links, reference.links);

      const exportMs = median(exports.map((e) => e.ms));
      const walkMs = median(walks);
      const ratio = exportMs / walkMs;
      const worst = Math.max(...exports.map((e) => e.growth));
      const inOrder = exports.every((e) => e.records === BATCHES + 1 && sameList(e.ids.slice(1), reference.ids));
      const runsText = `${runs} run${runs > 1 ? 's' : ''}${runs > 1 ? ', medians' : ''}`;
      const conditions = `sandbox ${BATCHES.toLocaleString('en')} batches, page 100, latency ${latencyMs} ms, ${runsText}`;
      const paced = latencyMs >= 40;
      results.push(
        {
          target: `16-3a export memory, latency ${latencyMs} ms (peak RSS growth, CSV; xlsx)`,
          figure: `${signed(worst)}; xlsx ${signed(xPeak - xBaseline)} (baseline ${fmtBytes(median(exports.map((e) => e.baseline)))})`,
          goal: '< 64 MB',
          ok: worst < 64 * 1024 * 1024 && xPeak - xBaseline < 64 * 1024 * 1024,
          detail: `${conditions}; worst CSV run shown, every run: ${exports.map((e) => signed(e.growth)).join(', ')}; app process RSS every 50 ms`,
        },
        {
          target: `16-3b export pace, latency ${latencyMs} ms (CSV export / sequential walk; xlsx)`,
          figure: `${ratio.toFixed(2)}× (${fmtMs(exportMs)} vs ${fmtMs(walkMs)}); xlsx ${(xlsx.ms / walkMs).toFixed(2)}× (${fmtMs(xlsx.ms)})`,
          goal: paced ? '≤ 0.35× (CSV)' : 'our own cost (no latency)',
          ok: paced ? ratio <= 0.35 : true,
          detail: `${conditions}; ${fmtBytes(median(exports.map((e) => e.bytes)))} of CSV, ${fmtBytes(xlsx.bytes)} of xlsx; app CPU ${median(exports.map((e) => e.cpu)).toFixed(1)} s (CSV), ${xCpuS.toFixed(1)} s (xlsx); the walk fetches and parses every v2 page in turn`,
        },
        {
          target: `16-3c export complete and in creation order, latency ${latencyMs} ms`,
          figure: `${exports.map((e) => `${e.records.toLocaleString('en')} records`).join(', ')}; xlsx ${xRows.rows.toLocaleString('en')} rows`,
          goal: `${(BATCHES + 1).toLocaleString('en')} (header + batches), ids those of the sequential walk in its order; xlsx whole, its links in that order`,
          ok: inOrder && xComplete,
          detail: `CSV ids as the walk's, in order: ${inOrder}; lines (LF) ${exports.map((e) => e.lines.toLocaleString('en')).join(', ')}; xlsx whole ${xlsx.whole}, ${xRows.links.length.toLocaleString('en')} links in the walk's order: ${sameList(xRows.links, reference.links)}`,
        },
      );
    }
    return results;
  } finally {
    await app.stop();
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'export', 'Issue 16 target 3: parallel export', run);
