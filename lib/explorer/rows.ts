import type { Batch } from '../contract';
import { NULL, ODD, RowStore } from './row-store';
import { meanCells, NO_CROP, type Row } from './row';

export { cropOfKey, meanCells, NO_CROP, type Row } from './row';
import { targetFor, type TargetMetric, type Targets } from '../contract/targets';
import { isDrilled, passesDrill, type RowDrill } from './drill';
import { JUDGED, missCount, missLookup, missMask, missTally, type MissKind } from './targets/misses';
import type { ExplorerState, SortField } from './url-state';

/** Rows made one at a time (tests, a few rows) share a store, a new one now and then so that none grows forever. */
let loose = new RowStore();
const LOOSE_ROWS = 100_000;

/** A row in a store of its own kind; the loader adds a range's batches to one store per range (batch-load.ts). */
export function toRow(batch: Batch): Row {
  if (loose.length >= LOOSE_ROWS) loose = new RowStore();
  return loose.add(batch);
}

/** Makes rows in the store of `rows` (a load resumed after an error continues its store), or in a new one. */
export function rowMaker(rows: readonly Row[]): (batch: Batch) => Row {
  const store = rows[0]?.store ?? new RowStore();
  return (batch) => store.add(batch);
}

/** A row read as if created `shiftMs` later (a comparison period laid over this range's buckets). */
export function shiftedRow(r: Row, shiftMs: number): Row {
  return Object.create(r, { time: { value: r.time + shiftMs } }) as Row;
}

/**
 * What narrows the rows: Search, crop, warnings only, missing its own crop's targets (any, or one kind: see
 * targets/misses.ts), and the drill-downs from the charts (see drill.ts).
 */
export type RowFilter = Pick<ExplorerState, 'q' | 'crop' | 'warn' | 'below'> & { targets: Targets; drill?: RowDrill };

/**
 * The target each row is judged against, looked up once per crop (not once per row: 100,000 rows share a
 * few dozen crops). Null: no target for that crop.
 */
export function targetLookup(targets: Targets, metric: TargetMetric): (r: Row) => number | null {
  const byCrop = new Map<string | null, number | null>();
  const ofCrop = (crop: string | null) => {
    let t = byCrop.get(crop);
    if (t === undefined) byCrop.set(crop, (t = targetFor(targets, crop, metric)));
    return t;
  };
  // By the store's crop number: no string hashing per row (a million rows per summary while they stream in).
  let store: RowStore | null = null;
  let byId: (number | null | undefined)[] = [];
  return (r) => {
    if (r.store !== store) {
      store = r.store;
      byId = [];
    }
    const id = store.cropId(r.index) + 1;
    if (id < 0) return ofCrop(r.crop);
    let t = byId[id];
    if (t === undefined) t = byId[id] = ofCrop(r.crop);
    return t;
  };
}

/** The lower-cased words of a Search text, the longest first (the rarest, usually, so a miss is found soonest). */
export function searchWords(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))].sort((a, b) => b.length - a.length);
}

/**
 * Whether a row holds every word somewhere in its name, crop, comment or scanner e-mail, case-insensitively, in any
 * order (`petunia gh1` finds `Petunia Surfinia · GH1 · wk47`): each store answers for all its rows at once.
 */
function searchTest(words: readonly string[]): (r: Row) => boolean {
  let store: RowStore | null = null;
  let hits: Uint8Array = new Uint8Array(0);
  return (r) => {
    if (r.store !== store) hits = (store = r.store).searchHits(words);
    return hits[r.index] === 1;
  };
}

/** The rows that pass the filter, in their order; the same array when no filter is set. */
export function filterRows(rows: readonly Row[], f: RowFilter): readonly Row[] {
  const words = searchWords(f.q);
  const drill = f.drill && isDrilled(f.drill) ? f.drill : null;
  if (!words.length && f.crop === undefined && !f.warn && !f.below && !drill) return rows;
  const misses = missLookup(f.targets);
  const mask = f.below ? missMask(f.below) : 0;
  const found = searchTest(words);
  return rows.filter(
    (r) =>
      (!words.length || found(r)) &&
      (f.crop === undefined || (f.crop === NO_CROP ? r.crop === null : r.crop === f.crop)) &&
      (!f.warn || r.warnings) &&
      (!mask || (misses(r) & mask) !== 0) &&
      (!drill || passesDrill(r, drill)),
  );
}

/** Creation order: oldest first, ties by batch_id (the service's own order, whatever order pages arrived in). */
export function compareCreation(a: Row, b: Row): number {
  const d = a.time - b.time;
  if (d !== 0) return d;
  const x = a.id,
    y = b.id;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `ordered` (in creation order) with `added` merged in: O(n + k log k), so a growing list stays cheap to keep in order. */
export function mergeInCreationOrder(ordered: readonly Row[], added: Row[]): Row[] {
  added.sort(compareCreation);
  const out = new Array<Row>(ordered.length + added.length);
  let i = 0,
    j = 0,
    k = 0;
  while (i < ordered.length && j < added.length)
    out[k++] = compareCreation(ordered[i]!, added[j]!) <= 0 ? ordered[i++]! : added[j++]!;
  while (i < ordered.length) out[k++] = ordered[i++]!;
  while (j < added.length) out[k++] = added[j++]!;
  return out;
}

/** `ordered` narrowed to the rows of `subset` (a filtered copy of the same rows), keeping `ordered`'s order. */
export function keepOnly(ordered: readonly Row[], subset: readonly Row[]): readonly Row[] {
  if (subset.length === ordered.length) return ordered;
  // Rows of one store: marks by index, not a Set of a million rows.
  const store = storeOf(ordered);
  if (store && storeOf(subset) === store) {
    const mark = new Uint8Array(store.length);
    for (const r of subset) mark[r.index] = 1;
    return ordered.filter((r) => mark[r.index] === 1);
  }
  const keep = new Set(subset);
  return ordered.filter((r) => keep.has(r));
}

/** Text columns read A→Z first; numbers and dates the largest (newest) first. */
export function firstSortDir(field: SortField): 'asc' | 'desc' {
  return field === 'batch_name' || field === 'crop_type' ? 'asc' : 'desc';
}

/** The direction after a click on `field`'s header: its first direction, or the other one when already sorted by it. */
export function nextSortDir(field: SortField, current: SortField, dir: 'asc' | 'desc'): 'asc' | 'desc' {
  const first = firstSortDir(field);
  if (field !== current) return first;
  return dir === 'asc' ? 'desc' : 'asc';
}

function numericKey(r: Row, field: Exclude<SortField, 'batch_name' | 'crop_type' | 'target' | 'below'>): number | null {
  switch (field) {
    case 'batch_creation_date':
      return r.time;
    case 'avg_germination_rate':
      return r.germination;
    case 'avg_usable_seedling_rate':
      return r.usable;
    case 'total_cells_per_tray':
      return r.cells;
    case 'avg_coefficient_of_variation':
      return r.cv;
    case 'avg_median_seedling_size_mm2':
      return r.size;
    case 'warnings':
      return r.warnings ? 1 : 0;
    case 'number_of_images':
      return r.field('number_of_images');
  }
}

/** The one store all `rows` come from, or null when they mix stores. */
function storeOf(rows: readonly Row[]): RowStore | null {
  const store = rows[0]?.store ?? null;
  for (const r of rows) if (r.store !== store) return null;
  return store;
}

/** `key` of every row (a plain loop: Float64Array.from with a mapping function is ten times slower in V8). */
function keysOf(rows: readonly Row[], key: (r: Row) => number): Float64Array {
  const keys = new Float64Array(rows.length);
  for (let p = 0; p < rows.length; p++) keys[p] = key(rows[p]!);
  return keys;
}

/** Text sort keys: ranks of the lower-cased texts in code-unit order (as `<` compares), equal texts equal; NaN: none. */
function textKeys(rows: readonly Row[], field: 'batch_name' | 'crop_type'): Float64Array {
  const store = storeOf(rows);
  if (store && field === 'batch_name') {
    const ranks = store.nameRanks();
    return keysOf(rows, (r) => ranks[r.index]!);
  }
  if (store && !store.hasOddCrops()) {
    const ranks = store.cropRanks();
    return keysOf(rows, (r) => {
      const id = store.cropId(r.index);
      return id >= 0 ? ranks[id]! : NaN;
    });
  }
  const lower = rows.map((r) => r.field(field)?.toLowerCase() ?? null);
  const distinct = [...new Set(lower.filter((v) => v !== null))].sort();
  const rankOf = new Map(distinct.map((v, k) => [v, k]));
  const keys = new Float64Array(lower.length);
  for (let p = 0; p < lower.length; p++) keys[p] = lower[p] === null ? NaN : rankOf.get(lower[p]!)!;
  return keys;
}

/**
 * The rows in the order of `keys` (NaN: no value, last in both directions), ties in their order in `rows`. Each
 * key becomes its rank among the distinct keys (one native sort of the keys, then a binary search), and a counting
 * sort by rank places the rows: stable, and no comparator called millions of times.
 */
function orderByKeys(rows: readonly Row[], keys: Float64Array, sign: 1 | -1): Row[] {
  return (
    orderByCounting(rows, keys, sign, 1) ?? orderByCounting(rows, keys, sign, 100) ?? orderByRanks(rows, keys, sign)
  );
}

/**
 * The same order when every key is a whole number of 1/`scale` (ranks, counts; the service's two-decimal figures
 * with scale 100) within a span of a few times the row count: a counting sort straight over the keys, no sort at
 * all. Null (did not fit).
 */
function orderByCounting(rows: readonly Row[], keys: Float64Array, sign: 1 | -1, scale: number): Row[] | null {
  const n = rows.length;
  let lo = Infinity,
    hi = -Infinity;
  for (let p = 0; p < n; p++) {
    const x = keys[p]!;
    if (x !== x) continue;
    const k = Math.round(x * scale);
    if (k / scale !== x) return null;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
  const span = hi >= lo ? hi - lo + 1 : 0;
  if (span > 4 * n + 1024) return null;
  const slots = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    const x = keys[p]!;
    slots[p] = x !== x ? span : sign === 1 ? Math.round(x * scale) - lo : hi - Math.round(x * scale);
  }
  return placeBySlot(rows, slots, span + 1);
}

/** A stable counting sort: the rows by their slot (0 to `count` − 1), equal slots in their order in `rows`. */
function placeBySlot(rows: readonly Row[], slots: Int32Array, count: number): Row[] {
  const starts = new Int32Array(count + 1);
  for (let p = 0; p < slots.length; p++) starts[slots[p]! + 1]!++;
  for (let r = 1; r <= count; r++) starts[r]! += starts[r - 1]!;
  const out = new Array<Row>(rows.length);
  for (let p = 0; p < rows.length; p++) out[starts[slots[p]!]!++] = rows[p]!;
  return out;
}

function orderByRanks(rows: readonly Row[], keys: Float64Array, sign: 1 | -1): Row[] {
  const n = rows.length;
  const sorted = keys.slice().sort(); // NaN last
  let m = 0;
  for (let k = 0; k < n; k++) {
    const x = sorted[k]!;
    if (x !== x) break;
    if (m === 0 || x !== sorted[m - 1]) sorted[m++] = x;
  }
  const ranks = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    const x = keys[p]!;
    let rank = m;
    if (x === x) {
      let lo = 0,
        hi = m - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      rank = sign === 1 ? lo : m - 1 - lo;
    }
    ranks[p] = rank;
  }
  return placeBySlot(rows, ranks, m + 1);
}

/** The Off target column's order: the most targets missed first (then by kind), batches not judged at all last. */
function missKey(targets: Targets): (r: Row) => number | null {
  const misses = missLookup(targets);
  return (r) => {
    const bits = misses(r);
    return bits & JUDGED ? missCount(bits) * 8 + (bits & 7) : null;
  };
}

/**
 * Sorted by `field`; nulls last in both directions; ties keep creation order. Expects rows in creation order
 * (see compareCreation). Text columns compare their lower-cased text by code units (`<`), as they always have.
 */
export function sortRows(rows: readonly Row[], field: SortField, dir: 'asc' | 'desc', targets: Targets): Row[] {
  // Already in this order: the newest first is simply the reverse (ties then newest batch_id first).
  if (field === 'batch_creation_date') return dir === 'asc' ? rows.slice() : rows.slice().reverse();
  const sign = dir === 'asc' ? 1 : -1;
  if (field === 'batch_name' || field === 'crop_type') return orderByKeys(rows, textKeys(rows, field), sign);
  // NaN stands for null.
  const key =
    field === 'target'
      ? targetLookup(targets, 'germination')
      : field === 'below'
        ? missKey(targets)
        : (r: Row) => numericKey(r, field);
  return orderByKeys(
    rows,
    keysOf(rows, (r) => key(r) ?? NaN),
    sign,
  );
}

export type Summary = {
  count: number;
  germination: number | null;
  usable: number | null;
  warningShare: number | null;
  /** Batches that miss at least one of their own crop's targets (targets/misses.ts). */
  below: number;
  /** `below` as a share of the batches that can be judged at all (see summarize); null when none can. */
  belowShare: number | null;
  /** Batches missing each kind of target (a batch missing two is counted under both). */
  belowBy: Record<MissKind, number>;
  /** Batches judged by each kind (its target set and the figure recorded). */
  judgedBy: Record<MissKind, number>;
};

/**
 * Means weighted by cells per tray (a batch of 288 cells counts more than one of 72), not a mean of means.
 * A batch whose tray size is unknown weighs as much as the average known tray.
 */
export function summarize(rows: readonly Row[], targets: Targets): Summary {
  const store = storeOf(rows);
  if (store) return summarizeColumns(rows, store, targets);
  const fallback = meanCells(rows);
  const misses = missLookup(targets);
  const tally = new Float64Array(64); // rows by their MISSED and JUDGED_BY bits
  let gw = 0,
    gs = 0,
    uw = 0,
    us = 0,
    warned = 0;
  for (const r of rows) {
    const w = r.cells ?? fallback;
    const germination = r.germination,
      usable = r.usable;
    if (germination !== null) {
      gw += w;
      gs += w * germination;
    }
    if (usable !== null) {
      uw += w;
      us += w * usable;
    }
    if (r.warnings) warned++;
    tally[misses(r)]!++;
  }
  return summaryOf(rows.length, { gw, gs, uw, us, warned }, tally);
}

type Sums = { gw: number; gs: number; uw: number; us: number; warned: number };

function summaryOf(count: number, { gw, gs, uw, us, warned }: Sums, tally: Float64Array): Summary {
  const { below, judged, belowBy, judgedBy } = missTally(tally);
  return {
    count,
    germination: gw ? gs / gw : null,
    usable: uw ? us / uw : null,
    warningShare: count ? warned / count : null,
    below,
    // The denominator is the batches that could be judged (a target of their crop and its figure recorded), not
    // every batch: a batch with no figures, or of a crop with no target, is neither below nor above, and counting
    // it would make "3 of 10 below" read as if the other 7 had met their targets.
    belowShare: judged ? below / judged : null,
    belowBy,
    judgedBy,
  };
}

/**
 * summarize over rows of one store, reading its columns (a million rows per summary while they stream in): the
 * same sums in the same order, each row's figures read once; a value kept aside (ODD) through the row's getter.
 */
function summarizeColumns(rows: readonly Row[], store: RowStore, targets: Targets): Summary {
  const c = store.columns();
  let n = 0,
    sum = 0;
  for (let p = 0; p < rows.length; p++) {
    const v = c.cells[rows[p]!.index]!;
    if (v > ODD) {
      n++;
      sum += v;
    } else if (v === ODD) {
      n++;
      sum += rows[p]!.cells!;
    }
  }
  const fallback = n ? sum / n : 1;
  const misses = missLookup(targets);
  const tally = new Float64Array(64); // rows by their MISSED and JUDGED_BY bits
  let gw = 0,
    gs = 0,
    uw = 0,
    us = 0,
    warned = 0;
  for (let p = 0; p < rows.length; p++) {
    const r = rows[p]!,
      i = r.index;
    const cells = c.cells[i]!,
      g = c.germination[i]!,
      u = c.usable[i]!;
    const w = cells > ODD ? cells : cells === NULL ? fallback : (r.cells ?? fallback);
    if (g !== NULL) {
      const germination = g === ODD ? r.germination! : g / 100;
      gw += w;
      gs += w * germination;
    }
    if (u !== NULL) {
      const usable = u === ODD ? r.usable! : u / 100;
      uw += w;
      us += w * usable;
    }
    const warn = c.warned[i]!;
    if (warn === 1 || (warn === 2 && r.warnings)) warned++;
    tally[misses(r)]!++;
  }
  return summaryOf(rows.length, { gw, gs, uw, us, warned }, tally);
}

export function cropsOf(rows: readonly Row[]): string[] {
  const set = new Set<string>();
  let none = false;
  const store = storeOf(rows);
  if (store) {
    // By crop number: a mark per crop, not a Set insertion per row.
    const { crop, crops } = store.columns();
    const seen = new Uint8Array(crops.length);
    for (let p = 0; p < rows.length; p++) {
      const id = crop[rows[p]!.index]!;
      if (id >= 0) seen[id] = 1;
      else if (id === -1) none = true;
      else {
        const odd = rows[p]!.crop;
        if (odd === null) none = true;
        else set.add(odd);
      }
    }
    seen.forEach((s, id) => s && set.add(crops[id]!));
    return [...[...set].sort((a, b) => a.localeCompare(b)), ...(none ? [NO_CROP] : [])];
  }
  for (const r of rows) {
    const crop = r.crop;
    if (crop === null) none = true;
    else set.add(crop);
  }
  return [...[...set].sort((a, b) => a.localeCompare(b)), ...(none ? [NO_CROP] : [])];
}
