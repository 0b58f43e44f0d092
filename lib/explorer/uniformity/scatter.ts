import { targetFor, type Targets } from '../../contract/targets';
import { median } from '../aggregate';
import { NO_CROP, type Row } from '../rows';
import { MISSED, missLookup } from '../targets/misses';

/*
 * Germination against CV of seedling size. Up to POINT_LIMIT batches, every batch is a point of its own, in its
 * crop's colour, carrying its verdict against its own crop's germination target and CV threshold. Beyond that,
 * batches are counted in equal cells of one grid (GERMINATION_WIDTH × a CV width from the data), each cell in
 * the colour of the crop holding over half of its batches (else none). Cell edges are the bins a `bins=`
 * drill-down reads, so a cell's count is exactly what its drill-down shows.
 */

/** Points up to this many batches (drawn on a canvas beyond SVG_POINTS); equal cells beyond. */
export const POINT_LIMIT = 50_000;
/** Points up to this many are SVG elements of their own (a handle to click, hover and test); beyond, a canvas. */
export const SVG_POINTS = 4_000;
/** The grid's germination width and about how many CV columns it has. */
export const GERMINATION_WIDTH = 2.5;
const CV_COLUMNS = 40;

/** The key of a cell whose batches have no crop over half of them. */
export const MIXED = '(mixed)';

/** A batch's verdict as bits: BELOW its crop's germination target, OVER its crop's CV threshold. */
export const BELOW = 1,
  OVER = 2;

export type ScatterPoint = { row: Row; germination: number; cv: number; crop: string; verdict: number };
export type ScatterCell = {
  /** Germination bin [g0, g1) (the top one holds 100 %), CV bin [c0, c1): as `bins=` writes them. */
  g0: number;
  g1: number;
  c0: number;
  c1: number;
  count: number;
  /** The crop of over half of its batches, or MIXED. */
  crop: string;
  /** Its batches below their own crop's germination target, and over their own crop's CV threshold. */
  below: number;
  over: number;
  /** Median of its batches' median seedling sizes, mm² (null: none recorded). */
  size: number | null;
};

export type Scatter = {
  kind: 'points' | 'cells';
  points: ScatterPoint[];
  cells: ScatterCell[];
  /** The grid's CV width (cells only). */
  cvWidth: number;
  /** Batches drawn (a germination rate and a CV both recorded), and those without either. */
  drawn: number;
  undrawn: number;
  /** The CV axis ends here; the lowest germination drawn (null: none). */
  cvMax: number;
  gMin: number | null;
  /** Crop keys of the batches drawn; those whose colour is drawn (every crop as points, a cell's majority crop as cells). */
  crops: Set<string>;
  coloured: Set<string>;
  /** Whether any batch drawn is judged against a CV threshold. */
  thresholds: boolean;
  /** The verdict bits that occur among the points (bit v set: some point has verdict v). */
  verdicts: number;
};

/** A bin edge as `bins=` writes it (drill.ts rounds to 1e-6). */
const edge = (i: number, w: number) => Math.round(i * w * 1e6) / 1e6;

/** 1, 2 or 5 times a power of ten, at least `raw`. */
export function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-6)));
  for (const s of [1, 2, 5]) if (raw <= s * power) return s * power;
  return 10 * power;
}

/** The bin of `v` at width `w`, by the edges drill-downs compare against; `top`: the last bin (holding the end itself). */
function binOf(v: number, w: number, top: number): number {
  let i = Math.min(Math.max(Math.floor(v / w), 0), top);
  if (i > 0 && v < edge(i, w)) i--;
  else if (i < top && v >= edge(i + 1, w)) i++;
  return i;
}

/**
 * A batch's verdict by the rule the Below target card, filter and Off target column follow (targets/misses.ts):
 * BELOW where it misses its crop's germination target, OVER where it misses its crop's CV threshold.
 */
function judge(targets: Targets) {
  const misses = missLookup(targets);
  return (r: Row): number => {
    const bits = misses(r);
    return (bits & MISSED.germination ? BELOW : 0) | (bits & MISSED.cv ? OVER : 0);
  };
}

/** The marks of `rows` (see above); points when at most `limit` batches are drawn. O(n). */
export function scatterOf(rows: readonly Row[], targets: Targets, limit = POINT_LIMIT): Scatter {
  let cvTop = 0,
    gMin = Infinity,
    drawn = 0;
  const cropsDrawn = new Set<string | null>();
  for (const r of rows) {
    if (r.germination === null || r.cv === null) continue;
    drawn++;
    cropsDrawn.add(r.crop);
    if (r.cv > cvTop) cvTop = r.cv;
    if (r.germination < gMin) gMin = r.germination;
  }
  const cvWidth = niceStep(Math.max(cvTop, 1) / CV_COLUMNS);
  const cvMax = Math.max(cvWidth, Math.ceil((cvTop + 1e-9) / cvWidth) * cvWidth);
  const verdictOf = judge(targets);
  const thresholds = [...cropsDrawn].some((crop) => targetFor(targets, crop, 'cv') !== null);
  const base = { cvWidth, drawn, undrawn: rows.length - drawn, cvMax, gMin: drawn ? gMin : null, thresholds };
  const crops = new Set([...cropsDrawn].map((crop) => crop ?? NO_CROP));
  if (drawn <= limit) {
    const points: ScatterPoint[] = [];
    let verdicts = 0;
    for (const r of rows) {
      if (r.germination === null || r.cv === null) continue;
      const crop = r.crop ?? NO_CROP;
      const verdict = verdictOf(r);
      verdicts |= 1 << verdict;
      points.push({ row: r, germination: r.germination, cv: r.cv, crop, verdict });
    }
    return { ...base, kind: 'points', points, cells: [], crops, coloured: crops, verdicts };
  }
  const cells = cellsOf(rows, verdictOf, cvWidth, cvMax);
  const coloured = new Set(cells.map((c) => c.crop).filter((c) => c !== MIXED));
  return { ...base, kind: 'cells', points: [], cells, crops, coloured, verdicts: 0 };
}

/**
 * The batches counted in equal cells of GERMINATION_WIDTH × `cvWidth`, from 0 to 100 % and 0 to `cvMax`: only
 * cells holding a batch, in germination then CV order. Also the table's rows when points are too many to list.
 * Flat typed arrays throughout (a cell key per batch, crop tallies per cell, sizes sorted cell by cell): 100,000
 * row objects are read once.
 */
export function cellsOf(
  rows: readonly Row[],
  verdictOf: (r: Row) => number,
  cvWidth: number,
  cvMax: number,
): ScatterCell[] {
  const gCols = Math.round(100 / GERMINATION_WIDTH),
    cRows = Math.round(cvMax / cvWidth);
  const keys = gCols * cRows;
  const keyOf = new Int32Array(rows.length).fill(-1);
  const cropOf = new Uint16Array(rows.length);
  const counts = new Uint32Array(keys),
    below = new Uint32Array(keys),
    over = new Uint32Array(keys),
    sized = new Uint32Array(keys + 1);
  const cropIds = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.germination === null || r.cv === null) continue;
    const key = binOf(r.germination, GERMINATION_WIDTH, gCols - 1) * cRows + binOf(r.cv, cvWidth, cRows - 1);
    keyOf[i] = key;
    counts[key]!++;
    const verdict = verdictOf(r);
    if (verdict & BELOW) below[key]!++;
    if (verdict & OVER) over[key]!++;
    const crop = r.crop ?? NO_CROP;
    let id = cropIds.get(crop);
    if (id === undefined) cropIds.set(crop, (id = cropIds.size));
    cropOf[i] = id;
    if (r.size !== null) sized[key + 1]!++;
  }
  const crops = [...cropIds.keys()];
  const tally = new Uint32Array(keys * crops.length);
  // Sizes cell by cell (a counting sort), each cell's run then sorted for its median.
  for (let k = 0; k < keys; k++) sized[k + 1]! += sized[k]!;
  const fill = sized.slice(0, keys);
  const sizes = new Float64Array(sized[keys]!);
  for (let i = 0; i < rows.length; i++) {
    const key = keyOf[i]!;
    if (key < 0) continue;
    tally[key * crops.length + cropOf[i]!]!++;
    const size = rows[i]!.size;
    if (size !== null) sizes[fill[key]!++] = size;
  }
  const cells: ScatterCell[] = [];
  for (let key = 0; key < keys; key++) {
    const count = counts[key]!;
    if (count === 0) continue;
    const gi = Math.floor(key / cRows),
      ci = key % cRows;
    let crop = MIXED;
    for (let c = 0; c < crops.length; c++) if (tally[key * crops.length + c]! * 2 > count) crop = crops[c]!;
    cells.push({
      g0: edge(gi, GERMINATION_WIDTH),
      g1: edge(gi + 1, GERMINATION_WIDTH),
      c0: edge(ci, cvWidth),
      c1: edge(ci + 1, cvWidth),
      count,
      crop,
      below: below[key]!,
      over: over[key]!,
      size: median(sizes.subarray(sized[key]!, sized[key + 1]!)),
    });
  }
  return cells;
}

/** The cells of `rows` on the grid `scatterOf` would use: the table's rows when the points are too many to list. */
export function gridOf(rows: readonly Row[], targets: Targets, scatter: Scatter): ScatterCell[] {
  return scatter.kind === 'cells' ? scatter.cells : cellsOf(rows, judge(targets), scatter.cvWidth, scatter.cvMax);
}
