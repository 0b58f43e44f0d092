import { targetFor, type Targets } from '../contract';
import type { Span } from './missing';
import { civilToMs, dayIn, startOfDayIn, type Zone } from './zones';
import { belowTarget, cropOfKey, meanCells, NO_CROP, targetLookup, type Row } from './rows';

/** However many batches are loaded, no chart gets more points than this. */
export const MAX_POINTS = 1000;
const DAY_MS = 86_400_000;

type Bucket = 'day' | 'week' | 'month';

function bucketStart(ms: number, bucket: Bucket, zone: Zone): number {
  const { y, m, d } = dayIn(ms, zone);
  if (bucket === 'day') return startOfDayIn(y, m, d, zone);
  if (bucket === 'month') return startOfDayIn(y, m, 1, zone);
  const weekday = new Date(civilToMs(y, m, d)).getUTCDay();
  return startOfDayIn(y, m, d - ((weekday + 6) % 7), zone); // Monday
}

/** Longer than any day, week or month (DST included) and shorter than two of them: start + this is in the next one. */
const STEP_INTO_NEXT: Record<Bucket, number> = { day: 1.5 * DAY_MS, week: 7.5 * DAY_MS, month: 32 * DAY_MS };

export type SeriesPoint = { t: number } & Record<string, number | null>;

/**
 * Weighted mean germination per crop per day, week or month: the finest that stays under MAX_POINTS.
 * A bucket that overlaps a `missing` span (not loaded) has no value for any crop, and each missing span has
 * such a point at its start, so no line is drawn across what has not arrived.
 */
export function germinationOverTime(
  rows: readonly Row[],
  zone: Zone,
  missing: readonly Span[] = [],
): { bucket: Bucket; crops: string[]; points: SeriesPoint[] } {
  const crops = [...new Set(rows.map((r) => r.batch.crop_type ?? NO_CROP))].sort();
  if (rows.length === 0) return { bucket: 'day', crops, points: [] };
  let min = Infinity, max = -Infinity;
  for (const r of rows) { if (r.time < min) min = r.time; if (r.time > max) max = r.time; }
  const spanDays = (max - min) / DAY_MS + 1;
  const series = Math.max(1, crops.length);
  const bucket: Bucket = spanDays * series <= MAX_POINTS ? 'day' : (spanDays / 7) * series <= MAX_POINTS ? 'week' : 'month';
  const fallback = meanCells(rows);
  const sums = new Map<number, Map<string, { w: number; s: number }>>();
  // Zone arithmetic costs a few Intl calls: work out a bucket's bounds once, not once per row. Rows mostly come
  // in time order (the last bounds fit); otherwise the bounds already seen are found by UTC day, which overlaps
  // at most two buckets.
  const seen = new Map<number, { t: number; end: number }[]>();
  let t = NaN, end = NaN;
  for (const r of rows) {
    if (r.germination === null) continue;
    if (!(r.time >= t && r.time < end)) {
      const key = Math.floor(r.time / DAY_MS);
      let near = seen.get(key);
      if (!near) seen.set(key, (near = []));
      let bounds = near.find((b) => r.time >= b.t && r.time < b.end);
      if (!bounds) {
        const start = bucketStart(r.time, bucket, zone);
        near.push((bounds = { t: start, end: bucketStart(start + STEP_INTO_NEXT[bucket], bucket, zone) }));
      }
      ({ t, end } = bounds);
    }
    const crop = r.batch.crop_type ?? NO_CROP;
    let byCrop = sums.get(t);
    if (!byCrop) sums.set(t, (byCrop = new Map()));
    const acc = byCrop.get(crop) ?? { w: 0, s: 0 };
    const w = r.cells ?? fallback;
    acc.w += w;
    acc.s += w * r.germination;
    byCrop.set(crop, acc);
  }
  for (const span of missing) {
    const from = Math.max(span.from, min);
    if (from <= max && span.to >= min && !sums.has(bucketStart(from, bucket, zone))) sums.set(bucketStart(from, bucket, zone), new Map());
  }
  const overlapsMissing = (t: number) => {
    if (missing.length === 0) return false;
    const end = bucketStart(t + STEP_INTO_NEXT[bucket], bucket, zone);
    return missing.some((s) => s.from < end && s.to >= t);
  };
  const points = [...sums.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, byCrop]) => {
      const point: SeriesPoint = { t };
      const gap = overlapsMissing(t);
      for (const crop of crops) {
        const acc = byCrop.get(crop);
        point[crop] = acc && !gap ? Math.round((acc.s / acc.w) * 100) / 100 : null;
      }
      return point;
    });
  return { bucket, crops, points };
}

export type HistogramBin = { from: number; label: string; count: number; below: number; meets: number };

/**
 * Batches per 2.5-point band of germination rate, each band split into the batches below their own crop's
 * germination target and the others (a band can hold both when crops' targets differ).
 */
export function germinationHistogram(rows: readonly Row[], targets: Targets, width = 2.5): HistogramBin[] {
  const counts = new Map<number, { count: number; below: number }>();
  const germinationTarget = targetLookup(targets, 'germination');
  for (const r of rows) {
    if (r.germination === null) continue;
    const from = Math.min(100 - width, Math.floor(r.germination / width) * width);
    const bin = counts.get(from) ?? { count: 0, below: 0 };
    bin.count++;
    if (belowTarget(r, germinationTarget(r))) bin.below++;
    counts.set(from, bin);
  }
  if (counts.size === 0) return [];
  const lo = Math.min(...counts.keys());
  const bins: HistogramBin[] = [];
  for (let from = lo; from < 100; from += width) {
    const bin = counts.get(from) ?? { count: 0, below: 0 };
    bins.push({ from, label: `${from}–${from + width}%`, count: bin.count, below: bin.below, meets: bin.count - bin.below });
  }
  return bins;
}

/** Weighted mean germination and usable rate per crop. */
export function perCrop(
  rows: readonly Row[],
  targets: Targets,
): { crop: string; germination: number | null; usable: number | null; count: number; target: number | null }[] {
  const fallback = meanCells(rows);
  const acc = new Map<string, { gw: number; gs: number; uw: number; us: number; count: number }>();
  for (const r of rows) {
    const crop = r.batch.crop_type ?? NO_CROP;
    const a = acc.get(crop) ?? { gw: 0, gs: 0, uw: 0, us: 0, count: 0 };
    const w = r.cells ?? fallback;
    a.count++;
    if (r.germination !== null) { a.gw += w; a.gs += w * r.germination; }
    if (r.usable !== null) { a.uw += w; a.us += w * r.usable; }
    acc.set(crop, a);
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  return [...acc.entries()]
    .map(([crop, a]) => ({
      crop,
      germination: a.gw ? round(a.gs / a.gw) : null,
      usable: a.uw ? round(a.us / a.uw) : null,
      count: a.count,
      target: targetFor(targets, cropOfKey(crop), 'germination'),
    }))
    .sort((a, b) => a.crop.localeCompare(b.crop));
}
