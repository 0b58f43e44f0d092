/**
 * Issue 16, target 4, step 1: how to keep a million loaded batches, options side by side in one run (Node).
 * (a) today's Row objects (the parsed batch, its numbers, a lower-cased haystack); (b) slim objects (numbers parsed
 * once, crop, e-mail, comment and decimal strings interned, no haystack); (c) the columnar RowStore of
 * lib/explorer/row-store.ts. Each option runs in a child process of its own (`node --expose-gc`), reading the same
 * NDJSON pages as the browser would, then reports its heap after a forced GC and Search, sort and filter timings.
 *
 *   npx tsx bench/row-store.ts            BENCH_ROWSTORE_BATCHES=1000000 (default), BENCH_ROWSTORE_RUNS=5
 */
import { execFileSync } from 'node:child_process';
import { closeSync, createReadStream, existsSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Batch } from '@/lib/contract';
import { DEFAULT_TARGETS } from '@/lib/contract/targets';
import { compareCreation, filterRows, sortRows, type Row } from '@/lib/explorer/rows';
import { RowStore } from '@/lib/explorer/row-store';
import { generateBatches } from '../sandbox/data/generate';
import { runDirectly } from './support/main';
import { fmtMs, median, type BenchResult } from './support/stats';

const BATCHES = Number(process.env.BENCH_ROWSTORE_BATCHES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ROWSTORE_RUNS ?? 5);
const FILE = `/tmp/bench-row-store-${BATCHES}.ndjson`;
const OPTIONS = ['objects', 'slim', 'columns'] as const;
type Option = (typeof OPTIONS)[number];
const SEARCHES = ['tomato', 'jansen', 'wk4 gh', 'propagation basil', 'zzzz'];
const SORTS = [
  'batch_name',
  'crop_type',
  'avg_germination_rate',
  'total_cells_per_tray',
  'avg_coefficient_of_variation',
] as const;

// ---- (a) today's rows, as on main before the store ----
type OldRow = {
  batch: Batch;
  time: number;
  germination: number | null;
  usable: number | null;
  cells: number | null;
  cv: number | null;
  size: number | null;
  haystack: string;
};
const num = (v: string | null) => (v === null ? null : Number(v));
const oldRow = (batch: Batch): OldRow => ({
  batch,
  time: Date.parse(batch.batch_creation_date),
  germination: num(batch.avg_germination_rate),
  usable: num(batch.avg_usable_seedling_rate),
  cells: batch.total_cells_per_tray,
  cv: num(batch.avg_coefficient_of_variation),
  size: num(batch.avg_median_seedling_size_mm2),
  haystack: [batch.batch_name, batch.crop_type, batch.comment, batch.scanned_by_email]
    .filter(Boolean)
    .join('\n')
    .toLowerCase(),
});

// ---- (b) slim objects ----
type Slim = {
  id: string;
  name: string;
  time: number;
  crop: string | null;
  scanner: string | null;
  comment: string | null;
  link: string | null;
  images: number;
  cells: number | null;
  warnings: boolean;
  decimals: (string | null)[];
  germination: number | null;
  usable: number | null;
  cv: number | null;
  size: number | null;
};
const pool = new Map<string, string>();
const intern = (s: string | null) => {
  if (s === null) return null;
  let v = pool.get(s);
  if (v === undefined) pool.set(s, (v = s));
  return v;
};
const DEC = [
  'avg_germinated_seedlings',
  'avg_non_germinated_seedlings',
  'avg_germination_rate',
  'avg_usable_seedlings',
  'avg_non_usable_cells',
  'avg_usable_seedling_rate',
  'avg_coefficient_of_variation',
  'avg_median_seedling_size_mm2',
] as const;
const slim = (b: Batch): Slim => ({
  id: b.batch_id,
  name: b.batch_name,
  time: Date.parse(b.batch_creation_date),
  crop: intern(b.crop_type),
  scanner: intern(b.scanned_by_email),
  comment: intern(b.comment),
  link: b.analysis_link,
  images: b.number_of_images,
  cells: b.total_cells_per_tray,
  warnings: b.warnings,
  decimals: DEC.map((f) => intern(b[f])),
  germination: num(b.avg_germination_rate),
  usable: num(b.avg_usable_seedling_rate),
  cv: num(b.avg_coefficient_of_variation),
  size: num(b.avg_median_seedling_size_mm2),
});

type Text = string | null;
/** Search over rows whose texts are read by `texts` (no stored haystack: lower-casing per query, interned texts once). */
function searchSlim(rows: readonly Slim[], q: string): Slim[] {
  const words = [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))];
  const lowered = new Map<string, string>();
  const low = (s: Text) => {
    if (s === null) return '';
    let v = lowered.get(s);
    if (v === undefined) lowered.set(s, (v = s.toLowerCase()));
    return v;
  };
  return rows.filter((r) => {
    const name = r.name.toLowerCase();
    return words.every(
      (w) => name.includes(w) || low(r.crop).includes(w) || low(r.comment).includes(w) || low(r.scanner).includes(w),
    );
  });
}

/** Today's sort (comparator over indices; text keys lower-cased per sort). */
function oldSort<R>(rows: readonly R[], key: (r: R) => string | number | null, text: boolean): R[] {
  const order = Uint32Array.from(rows, (_, i) => i);
  if (text) {
    const keys = rows.map((r) => (key(r) as string | null)?.toLowerCase() ?? null);
    order.sort((a, b) => {
      const x = keys[a]!,
        y = keys[b]!;
      if (x === y) return a - b;
      if (x === null) return 1;
      if (y === null) return -1;
      return x < y ? -1 : 1;
    });
  } else {
    const keys = Float64Array.from(rows, (r) => (key(r) as number | null) ?? NaN);
    order.sort((a, b) => {
      const x = keys[a]!,
        y = keys[b]!;
      if (x === y) return a - b;
      if (x !== x) return y !== y ? a - b : 1;
      if (y !== y) return -1;
      return x < y ? -1 : 1;
    });
  }
  return Array.from(order, (i) => rows[i]!);
}

const gc = () => (globalThis as unknown as { gc: () => void }).gc();
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

function timeIt(work: () => unknown, runs = RUNS): number[] {
  const out: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    work();
    out.push(performance.now() - t);
  }
  return out;
}

/** One option, in this (child) process: load, measure, print JSON. */
async function child(option: Option) {
  const before = heap();
  const t0 = performance.now();
  const held: unknown[] = [];
  const store = new RowStore();
  const ids = new Set<string>();
  const lines = createInterface({ input: createReadStream(FILE), crlfDelay: Infinity });
  for await (const line of lines) {
    for (const b of JSON.parse(line) as Batch[]) {
      if (ids.has(b.batch_id)) continue;
      ids.add(b.batch_id);
      held.push(option === 'objects' ? oldRow(b) : option === 'slim' ? slim(b) : store.add(b));
    }
  }
  const loadMs = performance.now() - t0;
  const heapMb = (heap() - before) / 2 ** 20;
  const search: Record<string, number> = {};
  const sort: Record<string, number> = {};
  let filterMs = 0;
  if (option === 'objects') {
    const rows = (held as OldRow[]).sort((a, b) => a.time - b.time);
    for (const q of SEARCHES)
      search[q] = median(
        timeIt(() => {
          const words = q.split(' ');
          rows.filter((r) => words.every((w) => r.haystack.includes(w)));
        }),
      );
    for (const f of SORTS)
      sort[f] = median(
        timeIt(
          () =>
            oldSort(
              rows,
              (r) =>
                f === 'batch_name' || f === 'crop_type'
                  ? r.batch[f]
                  : f === 'total_cells_per_tray'
                    ? r.cells
                    : f === 'avg_germination_rate'
                      ? r.germination
                      : r.cv,
              f === 'batch_name' || f === 'crop_type',
            ),
          3,
        ),
      );
    filterMs = median(timeIt(() => rows.filter((r) => r.batch.crop_type === 'Tomato' && r.batch.warnings)));
  } else if (option === 'slim') {
    const rows = (held as Slim[]).sort((a, b) => a.time - b.time);
    for (const q of SEARCHES) search[q] = median(timeIt(() => searchSlim(rows, q)));
    for (const f of SORTS)
      sort[f] = median(
        timeIt(
          () =>
            oldSort(
              rows,
              (r) =>
                f === 'batch_name'
                  ? r.name
                  : f === 'crop_type'
                    ? r.crop
                    : f === 'total_cells_per_tray'
                      ? r.cells
                      : f === 'avg_germination_rate'
                        ? r.germination
                        : r.cv,
              f === 'batch_name' || f === 'crop_type',
            ),
          3,
        ),
      );
    filterMs = median(timeIt(() => rows.filter((r) => r.crop === 'Tomato' && r.warnings)));
  } else {
    const rows = (held as Row[]).sort(compareCreation);
    // The store keeps its last answer: another query in between, so each run searches afresh.
    for (const q of SEARCHES) {
      const times: number[] = [];
      for (let k = 0; k < RUNS; k++) {
        filterRows(rows, { q: 'reset-' + k, targets: DEFAULT_TARGETS });
        const t = performance.now();
        filterRows(rows, { q, targets: DEFAULT_TARGETS });
        times.push(performance.now() - t);
      }
      search[q] = median(times);
    }
    const t = performance.now();
    sortRows(rows, 'batch_name', 'asc', DEFAULT_TARGETS);
    sort['batch_name (first: ranks)'] = performance.now() - t;
    for (const f of SORTS) sort[f] = median(timeIt(() => sortRows(rows, f, 'asc', DEFAULT_TARGETS), 3));
    filterMs = median(timeIt(() => filterRows(rows, { q: '', crop: 'Tomato', warn: '1', targets: DEFAULT_TARGETS })));
  }
  console.log(JSON.stringify({ option, rows: held.length, loadMs, heapMb, search, sort, filterMs }));
}

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(FILE)) {
    const t = performance.now();
    const batches = generateBatches({
      seed: 'bench',
      count: BATCHES,
      anchorMs: Date.UTC(2026, 10, 1),
      scanners: [
        'a.jansen@greenfield-seeds.example',
        'm.okafor@greenfield-seeds.example',
        'l.garcia@greenfield-seeds.example',
        'k.nakamura@greenfield-seeds.example',
        'greenhouse-scanner-2@greenfield-seeds.example',
      ],
      reportBaseUrl: 'https://reports.batchscan.example/org-demo/analysis',
    });
    const fd = openSync(FILE, 'w');
    for (let k = 0; k < batches.length; k += 1000) writeSync(fd, JSON.stringify(batches.slice(k, k + 1000)) + '\n');
    closeSync(fd);
    console.log(`generated ${BATCHES} batches in ${fmtMs(performance.now() - t)} into ${FILE}`);
  }
  const results: BenchResult[] = [];
  const figures: Record<
    string,
    { heapMb: number; search: Record<string, number>; sort: Record<string, number>; filterMs: number; loadMs: number }
  > = {};
  for (const option of OPTIONS) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--max-old-space-size=6000', '--import', 'tsx', import.meta.filename, option],
      { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20, timeout: 600_000 },
    );
    figures[option] = JSON.parse(out.trim().split('\n').at(-1)!);
    console.log(option, out.trim().split('\n').at(-1));
  }
  for (const option of OPTIONS) {
    const f = figures[option]!;
    const searchMedian = median(Object.values(f.search));
    const sortMedian = median(SORTS.map((s) => f.sort[s]!));
    results.push({
      target: `16.4 options: ${option}, ${BATCHES.toLocaleString('en-US')} batches`,
      figure: `heap ${f.heapMb.toFixed(0)} MB; Search median ${fmtMs(searchMedian)}; sort median ${fmtMs(sortMedian)}; filter ${fmtMs(f.filterMs)}`,
      goal: 'heap < 600 MB (with the page)',
      ok: f.heapMb < 600,
      detail: `load ${fmtMs(f.loadMs)}; search ${JSON.stringify(Object.fromEntries(Object.entries(f.search).map(([k, v]) => [k, Math.round(v)])))}; sort ${JSON.stringify(Object.fromEntries(Object.entries(f.sort).map(([k, v]) => [k, Math.round(v)])))}`,
    });
  }
  return results;
}

const role = process.argv[2];
if (OPTIONS.includes(role as Option)) void child(role as Option);
else runDirectly(import.meta.url, 'row-store', 'Issue 16.4: a million batches, storage options', run);
