import { rowsByCrop } from './aggregate';
import { RUN, type Rules } from './control/rules';
import { METRIC_INFO, type Metric } from './metrics';
import { NO_CROP, type Row } from './rows';

/*
 * Control charts (individuals and moving range, I-MR) per crop, for one metric.
 *   points    the crop's batches with a value, in creation order (the order the rows arrive in)
 *   baseline  the batches created in the baseline period, or else the first BASELINE_BATCHES batches without
 *             warnings; batches with warnings never count towards the limits (they are still drawn and judged)
 *   limits    centre = mean of the baseline; MR̄ = mean of |difference| between consecutive baseline batches
 *             (consecutive once the warned ones are left out); σ̂ = MR̄ / d2 (1.128 for ranges of two);
 *             UCL/LCL = centre ± 3σ̂, not clipped to the scale (the chart draws a limit past 0 or 100 % at the
 *             edge, labelled with its value)
 *   rule 1    a batch beyond a limit (strictly above the UCL or below the LCL)
 *   rule 2    (rules 'runs' only) RUN or more batches in a row on one side of the centre (one exactly on it ends
 *             the run); every batch of such a run is out of control, not only the 8th: the shift began at the first
 * Out of control: a batch that breaks a rule in force (counted once when it breaks both).
 */

export { RUN as RUN_LENGTH, type Rules };

/**
 * The default baseline: σ̂ from fewer batches scatters so much that false alarms rise well above the nominal
 * rate (false-alarms.ts: limits from 20 batches mark four times as many steady batches as true limits would).
 */
export const BASELINE_BATCHES = 50;
/** A baseline shorter than this gets the advice to take a longer one. */
export const RECOMMENDED_BASELINE = 50;
/** Fewer clean baseline batches than this and no limits are drawn: σ̂ from a handful of ranges says little. */
export const MIN_BASELINE = 10;
/** The mean range of two normal values in units of σ. */
const D2 = 1.128;

export type SpcPoint = { row: Row; value: number; beyond: boolean; run: boolean };

export type Limits = { centre: number; ucl: number; lcl: number; sigma: number; mrBar: number };

export type Baseline = {
  /** Clean (warning-free) batches in the baseline: the limits are computed from these. */
  used: number;
  /** Batches with warnings within the baseline's span, left out of the limits. */
  warned: number;
  /** Clean batches of the crop in all (a longer baseline could use up to these). */
  clean: number;
  /** Indices into `points` of the first and last batch of the baseline span (-1 when it holds none). */
  first: number;
  last: number;
};

export type ControlChart = {
  crop: string;
  rules: Rules;
  /** Batches of the crop, with or without a value of the metric (points: those with one). */
  total: number;
  points: SpcPoint[];
  baseline: Baseline;
  /** Null: too few clean batches in the baseline (fewer than MIN_BASELINE); then no batch is judged. */
  limits: Limits | null;
  beyond: number;
  run: number;
  /** Batches breaking rule 1, rule 2 or both. */
  outOfControl: number;
};

/** A span of instants [from, to): the baseline period the person picked. */
export type Period = { from: number; to: number };

/** Centre, MR̄, σ̂ and the 3σ̂ limits of `values` (in time order). */
export function limitsOf(values: readonly number[]): Limits {
  let sum = 0,
    ranges = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i]!;
    if (i > 0) ranges += Math.abs(values[i]! - values[i - 1]!);
  }
  const centre = sum / values.length;
  const mrBar = values.length > 1 ? ranges / (values.length - 1) : 0;
  const sigma = mrBar / D2;
  return { centre, mrBar, sigma, ucl: centre + 3 * sigma, lcl: centre - 3 * sigma };
}

function baselineOf(points: readonly SpcPoint[], period: Period | null): { baseline: Baseline; values: number[] } {
  const values: number[] = [];
  let first = -1,
    last = -1,
    warned = 0,
    clean = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (!p.row.warnings) clean++;
    if (period) {
      if (p.row.time < period.from || p.row.time >= period.to) continue;
    } else if (values.length >= BASELINE_BATCHES) continue;
    if (first < 0) first = i;
    last = i;
    if (p.row.warnings) warned++;
    else values.push(p.value);
  }
  return { baseline: { used: values.length, warned, clean, first, last }, values };
}

/** Marks the batches breaking rule 1 and (with 'runs') rule 2 in place; returns how many break each and either. */
export function judge(
  points: SpcPoint[],
  limits: Pick<Limits, 'centre' | 'ucl' | 'lcl'>,
  rules: Rules,
): Pick<ControlChart, 'beyond' | 'run' | 'outOfControl'> {
  let start = 0,
    side = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    p.beyond = p.value > limits.ucl || p.value < limits.lcl;
    if (rules !== 'runs') continue;
    const s = Math.sign(p.value - limits.centre);
    if (s !== side || s === 0) {
      start = i;
      side = s;
    }
    const length = i - start + 1;
    if (s !== 0 && length >= RUN) {
      for (let j = length === RUN ? start : i; j <= i; j++) points[j]!.run = true;
    }
  }
  let beyond = 0,
    run = 0,
    outOfControl = 0;
  for (const p of points) {
    if (p.beyond) beyond++;
    if (p.run) run++;
    if (p.beyond || p.run) outOfControl++;
  }
  return { beyond, run, outOfControl };
}

/** The control chart of one crop's rows (in creation order). */
export function controlChart(
  crop: string,
  rows: readonly Row[],
  metric: Metric,
  period: Period | null,
  rules: Rules = 'limits',
): ControlChart {
  const info = METRIC_INFO[metric];
  const points: SpcPoint[] = [];
  for (const row of rows) {
    const value = info.value(row);
    if (value !== null) points.push({ row, value, beyond: false, run: false });
  }
  const { baseline, values } = baselineOf(points, period);
  const facts = { crop, rules, total: rows.length, points, baseline };
  if (values.length < MIN_BASELINE) return { ...facts, limits: null, beyond: 0, run: 0, outOfControl: 0 };
  const limits = limitsOf(values);
  return { ...facts, limits, ...judge(points, limits, rules) };
}

/** A control chart per crop (NO_CROP for batches without one), the crop with the most batches first (ties: by name, NO_CROP last). */
export function controlCharts(
  rows: readonly Row[],
  metric: Metric,
  period: Period | null,
  rules: Rules = 'limits',
): ControlChart[] {
  const charts = [...rowsByCrop(rows)].map(([crop, list]) => controlChart(crop, list, metric, period, rules));
  const named = (c: ControlChart) => (c.crop === NO_CROP ? 1 : 0);
  return charts.sort(
    (a, b) => b.points.length - a.points.length || named(a) - named(b) || a.crop.localeCompare(b.crop),
  );
}

/**
 * The line to draw through `points`: all of them up to 2 × `buckets`, else the lowest and highest of each of
 * `buckets` equal runs of batches, in order (a line through those looks the same at chart width as one
 * through 20,000 points, and costs a fiftieth). `i` is the batch's index in `points`.
 */
export function drawnLine(points: readonly SpcPoint[], buckets = 600): { i: number; value: number }[] {
  if (points.length <= 2 * buckets) return points.map((p, i) => ({ i, value: p.value }));
  const out: { i: number; value: number }[] = [];
  const size = points.length / buckets;
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size),
      to = Math.floor((b + 1) * size);
    let lo = from,
      hi = from;
    for (let i = from + 1; i < to; i++) {
      if (points[i]!.value < points[lo]!.value) lo = i;
      if (points[i]!.value > points[hi]!.value) hi = i;
    }
    for (const i of lo === hi ? [lo] : [Math.min(lo, hi), Math.max(lo, hi)]) out.push({ i, value: points[i]!.value });
  }
  return out;
}
