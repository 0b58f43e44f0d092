import type { Batch } from '../contract';
import { targetFor, type TargetMetric, type Targets } from '../contract/targets';
import { isDrilled, passesDrill, type RowDrill } from './drill';
import type { ExplorerState, SortField } from './url-state';

/** A batch with the numbers parsed once, so filtering and sorting 100k rows stay cheap. */
export type Row = {
  batch: Batch;
  time: number;
  germination: number | null;
  usable: number | null;
  cells: number | null;
  /** Coefficient of variation of seedling size, %. */
  cv: number | null;
  /** Median seedling size, mm². */
  size: number | null;
  haystack: string;
};

const num = (v: string | null) => (v === null ? null : Number(v));

export function toRow(batch: Batch): Row {
  return {
    batch,
    time: Date.parse(batch.batch_creation_date),
    germination: num(batch.avg_germination_rate),
    usable: num(batch.avg_usable_seedling_rate),
    cells: batch.total_cells_per_tray,
    cv: num(batch.avg_coefficient_of_variation),
    size: num(batch.avg_median_seedling_size_mm2),
    haystack: [batch.batch_name, batch.crop_type, batch.comment, batch.scanned_by_email].filter(Boolean).join('\n').toLowerCase(),
  };
}

/** The key of batches with no crop recorded: in crop lists, the `crop` filter and chart series. */
export const NO_CROP = '(none)';
/** The crop a key stands for (null: none recorded). */
export const cropOfKey = (key: string): string | null => (key === NO_CROP ? null : key);

/**
 * What narrows the rows: Search, crop, warnings only, below each batch's own crop's germination target, and
 * the drill-downs from the charts (see drill.ts).
 */
export type RowFilter = Pick<ExplorerState, 'q' | 'crop' | 'warn' | 'below'> & { targets: Targets; drill?: RowDrill };

/**
 * The target each row is judged against, looked up once per crop (not once per row: 100,000 rows share a
 * few dozen crops). Null: no target for that crop.
 */
export function targetLookup(targets: Targets, metric: TargetMetric): (r: Row) => number | null {
  const byCrop = new Map<string | null, number | null>();
  return (r) => {
    const crop = r.batch.crop_type;
    let t = byCrop.get(crop);
    if (t === undefined) byCrop.set(crop, (t = targetFor(targets, crop, metric)));
    return t;
  };
}

/** Below its crop's germination target; a row without a germination rate or without a target is not. */
export function belowTarget(r: Row, target: number | null): boolean {
  return r.germination !== null && target !== null && r.germination < target;
}

/** The lower-cased words of a Search text, the longest first (the rarest, usually, so a miss is found soonest). */
export function searchWords(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))].sort((a, b) => b.length - a.length);
}

/** Every word somewhere in the row's text, in any order (`petunia gh1` finds `Petunia Surfinia · GH1 · wk47`). */
function hasAll(haystack: string, words: readonly string[]): boolean {
  for (const w of words) if (!haystack.includes(w)) return false;
  return true;
}

/** The rows that pass the filter, in their order; the same array when no filter is set. */
export function filterRows(rows: readonly Row[], f: RowFilter): readonly Row[] {
  const words = searchWords(f.q);
  const drill = f.drill && isDrilled(f.drill) ? f.drill : null;
  if (!words.length && f.crop === undefined && !f.warn && !f.below && !drill) return rows;
  const germinationTarget = targetLookup(f.targets, 'germination');
  return rows.filter(
    (r) =>
      (!words.length || hasAll(r.haystack, words)) &&
      (f.crop === undefined || (f.crop === NO_CROP ? r.batch.crop_type === null : r.batch.crop_type === f.crop)) &&
      (!f.warn || r.batch.warnings) &&
      (!f.below || belowTarget(r, germinationTarget(r))) &&
      (!drill || passesDrill(r, drill)),
  );
}

/** Creation order: oldest first, ties by batch_id (the service's own order, whatever order pages arrived in). */
export function compareCreation(a: Row, b: Row): number {
  const d = a.time - b.time;
  if (d !== 0) return d;
  const x = a.batch.batch_id, y = b.batch.batch_id;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `ordered` (in creation order) with `added` merged in: O(n + k log k), so a growing list stays cheap to keep in order. */
export function mergeInCreationOrder(ordered: readonly Row[], added: Row[]): Row[] {
  added.sort(compareCreation);
  const out = new Array<Row>(ordered.length + added.length);
  let i = 0, j = 0, k = 0;
  while (i < ordered.length && j < added.length) out[k++] = compareCreation(ordered[i]!, added[j]!) <= 0 ? ordered[i++]! : added[j++]!;
  while (i < ordered.length) out[k++] = ordered[i++]!;
  while (j < added.length) out[k++] = added[j++]!;
  return out;
}

/** `ordered` narrowed to the rows of `subset` (a filtered copy of the same rows), keeping `ordered`'s order. */
export function keepOnly(ordered: readonly Row[], subset: readonly Row[]): readonly Row[] {
  if (subset.length === ordered.length) return ordered;
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

function numericKey(r: Row, field: Exclude<SortField, 'batch_name' | 'crop_type' | 'target'>): number | null {
  switch (field) {
    case 'batch_creation_date':
      return r.time;
    case 'avg_germination_rate':
      return r.germination;
    case 'avg_usable_seedling_rate':
      return r.usable;
    case 'total_cells_per_tray':
      return r.cells;
    case 'warnings':
      return r.batch.warnings ? 1 : 0;
    case 'number_of_images':
      return r.batch.number_of_images;
    default:
      return num(r.batch[field]);
  }
}

/**
 * Sorted by `field`; nulls last in both directions; ties keep creation order. Expects rows in creation order
 * (see compareCreation). Keys are read once into flat arrays and indices are sorted, so 100,000 rows sort in
 * tens of milliseconds.
 */
export function sortRows(rows: readonly Row[], field: SortField, dir: 'asc' | 'desc', targets: Targets): Row[] {
  // Already in this order: the newest first is simply the reverse (ties then newest batch_id first).
  if (field === 'batch_creation_date') return dir === 'asc' ? rows.slice() : rows.slice().reverse();
  const sign = dir === 'asc' ? 1 : -1;
  const order = Uint32Array.from(rows, (_, i) => i);
  if (field === 'batch_name' || field === 'crop_type') {
    const keys = rows.map((r) => r.batch[field]?.toLowerCase() ?? null);
    order.sort((a, b) => {
      const x = keys[a]!, y = keys[b]!;
      if (x === y) return a - b;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sign;
    });
  } else {
    // NaN stands for null.
    const key = field === 'target' ? targetLookup(targets, 'germination') : (r: Row) => numericKey(r, field);
    const keys = Float64Array.from(rows, (r) => key(r) ?? NaN);
    order.sort((a, b) => {
      const x = keys[a]!, y = keys[b]!;
      if (x === y) return a - b;
      if (x !== x) return y !== y ? a - b : 1;
      if (y !== y) return -1;
      return (x < y ? -1 : 1) * sign;
    });
  }
  return Array.from(order, (i) => rows[i]!);
}

export type Summary = {
  count: number;
  germination: number | null;
  usable: number | null;
  warningShare: number | null;
  /** Batches below their own crop's germination target. */
  below: number;
  /** `below` as a share of the batches that can be judged at all (see summarize); null when none can. */
  belowShare: number | null;
};

/** Mean tray size of the rows that know it: the weight of a batch whose tray size is unknown. */
export function meanCells(rows: readonly Row[]): number {
  let n = 0, sum = 0;
  for (const r of rows) if (r.cells !== null) { n++; sum += r.cells; }
  return n ? sum / n : 1;
}

/**
 * Means weighted by cells per tray (a batch of 288 cells counts more than one of 72), not a mean of means.
 * A batch whose tray size is unknown weighs as much as the average known tray.
 */
export function summarize(rows: readonly Row[], targets: Targets): Summary {
  const fallback = meanCells(rows);
  const germinationTarget = targetLookup(targets, 'germination');
  let gw = 0, gs = 0, uw = 0, us = 0, warned = 0, below = 0, judged = 0;
  for (const r of rows) {
    const w = r.cells ?? fallback;
    if (r.germination !== null) {
      gw += w; gs += w * r.germination;
      const target = germinationTarget(r);
      if (target !== null) { judged++; if (r.germination < target) below++; }
    }
    if (r.usable !== null) { uw += w; us += w * r.usable; }
    if (r.batch.warnings) warned++;
  }
  return {
    count: rows.length,
    germination: gw ? gs / gw : null,
    usable: uw ? us / uw : null,
    warningShare: rows.length ? warned / rows.length : null,
    below,
    // The denominator is the batches that could be judged (a germination rate and a target for their crop), not
    // every batch: a batch with no rate, or of a crop with no target, is neither below nor above, and counting
    // it would make "3 of 10 below" read as if the other 7 had met their target.
    belowShare: judged ? below / judged : null,
  };
}

export function cropsOf(rows: readonly Row[]): string[] {
  const set = new Set<string>();
  let none = false;
  for (const r of rows) {
    if (r.batch.crop_type === null) none = true;
    else set.add(r.batch.crop_type);
  }
  return [...[...set].sort((a, b) => a.localeCompare(b)), ...(none ? [NO_CROP] : [])];
}
