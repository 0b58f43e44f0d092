import type { Targets } from '../contract';
import { formatDay } from './date-range';
import { METRIC_INFO, metricTarget, missesTarget, niceWidth, type Metric } from './metrics';
import type { Span } from './missing';
import { civilToMs, dayIn, startOfDayIn, type Zone } from './zones';
import { cropOfKey, meanCells, NO_CROP, type Row } from './row';

const DAY_MS = 86_400_000;

export type Bucket = 'day' | 'week' | 'month';

/** The first instant of the day, week (from Monday) or month of `ms` in the zone. */
export function bucketStart(ms: number, bucket: Bucket, zone: Zone): number {
  const { y, m, d } = dayIn(ms, zone);
  if (bucket === 'day') return startOfDayIn(y, m, d, zone);
  if (bucket === 'month') return startOfDayIn(y, m, 1, zone);
  const weekday = new Date(civilToMs(y, m, d)).getUTCDay();
  return startOfDayIn(y, m, d - ((weekday + 6) % 7), zone); // Monday
}

/** Longer than any day, week or month (DST included) and shorter than two of them: start + this is in the next one. */
const STEP_INTO_NEXT: Record<Bucket, number> = { day: 1.5 * DAY_MS, week: 7.5 * DAY_MS, month: 32 * DAY_MS };

/**
 * The bucket of a range `days` long: days up to two months, weeks up to a year and a half, months beyond:
 * 8 to 78 points a line, enough to see a trend and few enough to read each point.
 */
export function bucketFor(days: number): Bucket {
  return days <= 62 ? 'day' : days <= 550 ? 'week' : 'month';
}

/** The buckets from the one holding `from` to the one holding `to - 1`, as start instants (and their ends). */
export function bucketsOf(from: number, to: number, bucket: Bucket, zone: Zone): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let t = bucketStart(from, bucket, zone);
  while (t < to && starts.length < 5_000) {
    const end = bucketStart(t + STEP_INTO_NEXT[bucket], bucket, zone);
    starts.push(t);
    ends.push(end);
    t = end;
  }
  return { starts, ends };
}

/** The days a bucket covers, as `days=` names them. */
export function bucketDays(start: number, end: number, zone: Zone): { from: string; to: string } {
  return { from: formatDay(start, zone), to: formatDay(end - 1, zone) };
}

/** Index of the last `starts` entry ≤ t (−1 when before the first). */
function indexOf(starts: readonly number[], t: number): number {
  let lo = 0,
    hi = starts.length - 1,
    found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The median (the mean of the two middle values for an even count), null for none; sorted as a Float64Array (a numeric sort without a comparator: 100,000 values in a few ms). */
export function median(values: readonly number[] | Float64Array): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * How a set of batches is summed up for a metric: rates as the mean weighted by cells per tray (as the summary
 * cards are), CV and size as the median (a few failed sizings must not drag a mean).
 */
export const AGGREGATE_KIND: Record<Metric, 'mean' | 'median'> = {
  germination: 'mean',
  usable: 'mean',
  cv: 'median',
  size: 'median',
};

/** Collects a metric's values and cell weights, then reads the aggregate of AGGREGATE_KIND. */
class Accumulator {
  w = 0;
  s = 0;
  n = 0;
  count = 0;
  values: number[] | null;
  constructor(private readonly metric: Metric) {
    this.values = METRIC_INFO[metric].rate ? null : [];
  }
  add(r: Row, fallback: number) {
    this.count++;
    const v = METRIC_INFO[this.metric].value(r);
    if (v === null) return;
    this.n++;
    if (this.values) this.values.push(v);
    else {
      const w = r.cells ?? fallback;
      this.w += w;
      this.s += w * v;
    }
  }
  result(): number | null {
    if (this.values) return median(this.values);
    return this.w ? this.s / this.w : null;
  }
}

export type CropSeries = {
  crop: string;
  /** Batches of the crop in the rows. */
  count: number;
  /** The aggregate per bucket (null: no batch with a value, or the bucket is not wholly loaded). */
  values: (number | null)[];
  /** Batches with a value per bucket. */
  counts: number[];
};

export type TimeSeries = {
  bucket: Bucket;
  starts: number[];
  ends: number[];
  /** Buckets overlapping a span that has not been loaded: no value for any crop. */
  gaps: boolean[];
  /** Most batches first. */
  crops: CropSeries[];
  /** All crops together per bucket. */
  all: (number | null)[];
  allCounts: number[];
};

/**
 * The metric per crop per bucket across `window` (the range's instants; null: from the first to the last
 * batch). Every bucket of the window is there, batches or not, so a line breaks where a crop has none.
 */
export function overTime(
  rows: readonly Row[],
  metric: Metric,
  zone: Zone,
  window: { from: number; to: number } | null,
  missing: readonly Span[] = [],
): TimeSeries {
  let lo = window?.from ?? Infinity,
    hi = window?.to ?? -Infinity;
  if (!window)
    for (const r of rows) {
      if (r.time < lo) lo = r.time;
      if (r.time >= hi) hi = r.time + 1;
    }
  if (!(lo < hi)) return { bucket: 'day', starts: [], ends: [], gaps: [], crops: [], all: [], allCounts: [] };
  const bucket = bucketFor((hi - lo) / DAY_MS);
  const { starts, ends } = bucketsOf(lo, hi, bucket, zone);
  const fallback = meanCells(rows);
  const byCrop = new Map<string, { count: number; acc: Accumulator[] }>();
  const all = starts.map(() => new Accumulator(metric));
  for (const r of rows) {
    const i = indexOf(starts, r.time);
    if (i < 0 || r.time >= ends[i]!) continue;
    const key = r.crop ?? NO_CROP;
    let c = byCrop.get(key);
    if (!c) byCrop.set(key, (c = { count: 0, acc: starts.map(() => new Accumulator(metric)) }));
    c.count++;
    c.acc[i]!.add(r, fallback);
    all[i]!.add(r, fallback);
  }
  const gaps = starts.map((t, i) => missing.some((s) => s.from < ends[i]! && s.to >= t));
  const crops = [...byCrop.entries()]
    .map(([crop, c]) => ({
      crop,
      count: c.count,
      values: c.acc.map((a, i) => (gaps[i] ? null : a.result())),
      counts: c.acc.map((a) => a.n),
    }))
    .sort((a, b) => b.count - a.count || a.crop.localeCompare(b.crop));
  return {
    bucket,
    starts,
    ends,
    gaps,
    crops,
    all: all.map((a, i) => (gaps[i] ? null : a.result())),
    allCounts: all.map((a) => a.n),
  };
}

export type HistogramBin = {
  lo: number;
  hi: number;
  count: number;
  /** On the wrong side of their own crop's target (threshold for CV). */
  misses: number;
  meets: number;
};

export type Histogram = { metric: Metric; width: number; bins: HistogramBin[]; median: number | null; values: number };

/**
 * Batches per bin of the metric, each bin split into the batches that miss their own crop's target and the
 * others. Bins start at a multiple of their width, so bin edges fall on round numbers an axis can tick at; a
 * rate's last bin ends at 100 % and holds 100 % itself (see inBin).
 */
export function histogram(rows: readonly Row[], metric: Metric, targets: Targets, bins?: number): Histogram {
  const info = METRIC_INFO[metric];
  let min = Infinity,
    max = -Infinity;
  const values: number[] = [];
  for (const r of rows) {
    const v = info.value(r);
    if (v === null) continue;
    values.push(v);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mid = median(values);
  if (values.length === 0) return { metric, width: 1, bins: [], median: null, values: 0 };
  const width = bins === undefined || info.rate ? info.binWidth(min, max) : niceWidth(min, max, bins);
  const lo = Math.floor(min / width) * width;
  const top = info.rate ? 100 : Math.floor(max / width) * width + width;
  const n = Math.max(1, Math.round((top - lo) / width));
  const out: HistogramBin[] = Array.from({ length: n }, (_, i) => ({
    lo: round(lo + i * width),
    hi: round(lo + (i + 1) * width),
    count: 0,
    misses: 0,
    meets: 0,
  }));
  const targetOf = new Map<string | null, number | null>();
  for (const r of rows) {
    const v = info.value(r);
    if (v === null) continue;
    const i = Math.min(n - 1, Math.floor((v - lo) / width));
    const bin = out[i]!;
    bin.count++;
    const crop = r.crop;
    let t = targetOf.get(crop);
    if (t === undefined) targetOf.set(crop, (t = metricTarget(targets, crop, metric)));
    if (missesTarget(metric, v, t)) bin.misses++;
    else bin.meets++;
  }
  return { metric, width, bins: out, median: mid, values: values.length };
}

/** The rows of each crop key (NO_CROP for none), each crop's in the rows' order. */
export function rowsByCrop(rows: readonly Row[]): Map<string, Row[]> {
  const byCrop = new Map<string, Row[]>();
  for (const r of rows) {
    const key = r.crop ?? NO_CROP;
    let list = byCrop.get(key);
    if (!list) byCrop.set(key, (list = []));
    list.push(r);
  }
  return byCrop;
}

/** One crop's histogram: each on its own bins and axis (`bins` of them, about), for a metric crops cannot share. */
export type CropHistogram = Histogram & { crop: string; count: number };

/**
 * A histogram per crop, most batches first: median seedling size is not comparable across crops (cucumber
 * around 400 mm², petunia around 30), so one distribution over all would flatten every crop but the largest.
 */
export function histogramsPerCrop(rows: readonly Row[], metric: Metric, targets: Targets, bins = 12): CropHistogram[] {
  return [...rowsByCrop(rows)]
    .map(([crop, list]) => ({ ...histogram(list, metric, targets, bins), crop, count: list.length }))
    .sort((a, b) => b.count - a.count || a.crop.localeCompare(b.crop));
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export type CropFigure = { crop: string; value: number | null; count: number; n: number; target: number | null };

/** The metric per crop (AGGREGATE_KIND), with each crop's batch count and target; most batches first. */
export function perCrop(rows: readonly Row[], metric: Metric, targets: Targets): CropFigure[] {
  const fallback = meanCells(rows);
  const acc = new Map<string, Accumulator>();
  for (const r of rows) {
    const key = r.crop ?? NO_CROP;
    let a = acc.get(key);
    if (!a) acc.set(key, (a = new Accumulator(metric)));
    a.add(r, fallback);
  }
  return [...acc.entries()]
    .map(([crop, a]) => ({
      crop,
      value: a.result(),
      count: a.count,
      n: a.n,
      target: metricTarget(targets, cropOfKey(crop), metric),
    }))
    .sort((a, b) => b.count - a.count || a.crop.localeCompare(b.crop));
}
