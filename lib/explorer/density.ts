import { NO_CROP, type Row } from './rows';

/*
 * Germination against CV of seedling size, for any number of batches in at most `budget` marks: a grid over
 * both; a cell holding at least `k` batches is drawn as one density cell, the batches of the other cells each
 * as a point of their own. A batch alone in its cell is therefore always a point (k is at least 2), so an
 * isolated outlier stays visible and clickable. The grid and k are chosen per data set: the finest grid, and
 * at it the largest k (the most points), whose marks fit the budget. The grids are nested (each coarser one
 * doubles both widths from 0), so a batch alone in a coarse cell is alone in every finer one.
 */

/** Germination widths, finest first (each doubles the last: nested cells, edges exactly representable). */
const G_WIDTHS = [1.25, 2.5, 5, 10] as const;
/** Thresholds tried at each grid, largest first: a cell of at least k batches is drawn as one cell. */
const KS = [10, 7, 5, 4, 3, 2] as const;
/** CV rows of the finest grid across the data's CV range, about. */
const CV_ROWS = 40;
export const MARK_BUDGET = 2000;

/** The key of a density cell whose batches have no majority crop. */
export const MIXED = '(mixed)';

export type DensityPoint = { row: Row; germination: number; cv: number; size: number | null; crop: string };
export type DensityCell = {
  /** Germination bin [g0, g1) (the top bin holds 100 %), CV bin [c0, c1): as `bins=` writes them. */
  g0: number; g1: number; c0: number; c1: number;
  count: number;
  /** The crop of most of its batches (over half), or MIXED. */
  crop: string;
  /** Median of its batches' median seedling sizes, mm² (null: none recorded). */
  size: number | null;
};
export type Density = {
  points: DensityPoint[];
  cells: DensityCell[];
  gWidth: number;
  cvWidth: number;
  k: number;
  /** Batches drawn (a germination rate and a CV both recorded). */
  drawn: number;
  /** Batches without a germination rate or a CV: not drawn. */
  undrawn: number;
  /** The CV axis ends here (a whole number of the coarsest CV width). */
  cvMax: number;
  /** The lowest germination of a drawn batch (null: none drawn). */
  gMin: number | null;
};

/** A bin edge as `bins=` writes it (drill.ts rounds to 1e-6): so a batch's cell is the cell its drill-down finds. */
const edge = (i: number, w: number) => Math.round(i * w * 1e6) / 1e6;

/** 1, 2 or 5 times a power of ten, at least `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-6)));
  for (const s of [1, 2, 5]) if (raw <= s * power) return s * power;
  return 10 * power;
}

/** The bin of `v` at width `w` with the edges drill-downs compare against; `top`: the last bin (holding the end itself). */
function binOf(v: number, w: number, top: number): number {
  let i = Math.min(Math.max(Math.floor(v / w), 0), top);
  if (i > 0 && v < edge(i, w)) i--;
  else if (i < top && v >= edge(i + 1, w)) i++;
  return i;
}

/** The grid, the threshold and the marks of `rows` (see above): O(n) plus a sort of each density cell's sizes. */
export function densityMarks(rows: readonly Row[], budget = MARK_BUDGET): Density {
  const n = rows.length;
  let cvTop = 0, gMin = Infinity, drawn = 0;
  for (const r of rows) {
    if (r.germination === null || r.cv === null) continue;
    drawn++;
    if (r.cv > cvTop) cvTop = r.cv;
    if (r.germination < gMin) gMin = r.germination;
  }
  const levels = G_WIDTHS.length;
  const cvFine = niceStep(Math.max(cvTop, 1) / CV_ROWS);
  const cvCoarse = cvFine * 2 ** (levels - 1);
  const cvMax = Math.max(cvCoarse, Math.ceil((cvTop + 1e-9) / cvCoarse) * cvCoarse);
  const widths = G_WIDTHS.map((g, l) => ({ g, c: cvFine * 2 ** l, gCols: Math.round(100 / g), cRows: Math.round(cvMax / (cvFine * 2 ** l)) }));

  // Each row's cell at the finest grid (-1: not drawn), and the count of each fine cell.
  const fine = widths[0]!;
  const cellOf = new Int32Array(n);
  const fineCounts = new Uint32Array(fine.gCols * fine.cRows);
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    if (r.germination === null || r.cv === null) { cellOf[i] = -1; continue; }
    const c = binOf(r.germination, fine.g, fine.gCols - 1) * fine.cRows + binOf(r.cv, fine.c, fine.cRows - 1);
    cellOf[i] = c;
    fineCounts[c]!++;
  }

  // Counts at each level, from the fine ones (nested grids); the first level and k whose marks fit.
  let chosen = { level: levels - 1, k: 2 as number, counts: fineCounts };
  search: for (let l = 0; l < levels; l++) {
    const w = widths[l]!, f = 2 ** l;
    const counts = l === 0 ? fineCounts : new Uint32Array(w.gCols * w.cRows);
    if (l > 0) for (let c = 0; c < fineCounts.length; c++) if (fineCounts[c]) counts[Math.floor(c / fine.cRows / f) * w.cRows + Math.floor((c % fine.cRows) / f)]! += fineCounts[c]!;
    for (const k of KS) {
      let marks = 0;
      for (const count of counts) marks += count >= k ? 1 : count;
      if (marks <= budget || (l === levels - 1 && k === 2)) {
        chosen = { level: l, k, counts };
        break search;
      }
    }
  }
  const { level, k, counts } = chosen;
  const w = widths[level]!, f = 2 ** level;
  const coarse = (fineCell: number) => Math.floor(fineCell / fine.cRows / f) * w.cRows + Math.floor((fineCell % fine.cRows) / f);

  // Dense cells get a slot each; their batches' sizes and crops are gathered per slot.
  const slot = new Int32Array(counts.length).fill(-1);
  const cells: DensityCell[] = [];
  for (let c = 0; c < counts.length; c++) {
    if (counts[c]! < k) continue;
    slot[c] = cells.length;
    const gi = Math.floor(c / w.cRows), ci = c % w.cRows;
    cells.push({ g0: edge(gi, w.g), g1: edge(gi + 1, w.g), c0: edge(ci, w.c), c1: edge(ci + 1, w.c), count: counts[c]!, crop: MIXED, size: null });
  }
  // Each dense cell's batches' crops (as small numbers) and sizes, one cell after another (a counting sort):
  // the tallies and medians then read flat arrays, not 100,000 row objects scattered over the heap.
  const start = new Uint32Array(cells.length + 1);
  for (const cell of cells.keys()) start[cell + 1] = start[cell]! + cells[cell]!.count;
  const fill = start.slice(0, cells.length);
  const memberCrop = new Uint32Array(start[cells.length]!);
  const memberSize = new Float64Array(start[cells.length]!);
  const cropIds = new Map<string, number>();
  const points: DensityPoint[] = [];
  for (let i = 0; i < n; i++) {
    if (cellOf[i] === -1) continue;
    const r = rows[i]!;
    const s = slot[coarse(cellOf[i]!)]!;
    const crop = r.crop ?? NO_CROP;
    if (s === -1) {
      points.push({ row: r, germination: r.germination!, cv: r.cv!, size: r.size, crop });
      continue;
    }
    let id = cropIds.get(crop);
    if (id === undefined) cropIds.set(crop, (id = cropIds.size));
    const j = fill[s]!++;
    memberCrop[j] = id;
    memberSize[j] = r.size ?? NaN;
  }
  const cropNames = [...cropIds.keys()];
  const tally = new Uint32Array(cropNames.length);
  cells.forEach((cell, s) => {
    tally.fill(0);
    let sized = 0;
    for (let j = start[s]!; j < start[s + 1]!; j++) {
      tally[memberCrop[j]!]!++;
      if (memberSize[j] === memberSize[j]) sized++;
    }
    let best = 0;
    for (let c = 1; c < tally.length; c++) if (tally[c]! > tally[best]!) best = c;
    if (tally[best]! * 2 > cell.count) cell.crop = cropNames[best]!;
    // NaN (no size recorded) sorts last: the median of the first `sized`.
    cell.size = median(memberSize.subarray(start[s]!, start[s + 1]!).sort().subarray(0, sized));
  });
  return { points, cells, gWidth: w.g, cvWidth: w.c, k, drawn, undrawn: n - drawn, cvMax, gMin: drawn ? gMin : null };
}

/** The median of sorted `values`. */
function median(sorted: Float64Array): number | null {
  if (!sorted.length) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
