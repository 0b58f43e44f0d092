import { targetFor, type Targets } from '../contract/targets';
import type { Formats } from '../i18n/formats';
import type { Row } from './row';
import type { Speech } from './speech';

/**
 * What every chart can show: the **Metric** select switches them all (their names: `analysis.metrics.<id>` in
 * messages/). Rates are percentages of a tray
 * (0–100, higher is better); CV is the coefficient of variation of seedling size in percent (lower is more
 * even); size is the median seedling size in mm².
 */
export const METRICS = ['germination', 'usable', 'cv', 'size'] as const;
export type Metric = (typeof METRICS)[number];

export type MetricInfo = {
  id: Metric;
  unit: '%' | 'mm²';
  /** A share of the tray: differences are percentage points, and the scale ends at 100. */
  rate: boolean;
  /** Higher values are better (rates), lower are better (CV), or neither (size). */
  better: 'higher' | 'lower' | null;
  /** The width of a distribution bin. */
  binWidth: (lo: number, hi: number) => number;
  value: (r: Row) => number | null;
};

/** A width from 1, 2, 2.5 or 5 times a power of ten that cuts `lo`–`hi` into about `bins` (20–40 for 30) bins. */
export function niceWidth(lo: number, hi: number, bins = 30): number {
  const raw = Math.max(hi - lo, 1e-9) / bins;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const step of [1, 2, 2.5, 5, 10]) if (raw <= step * power) return step * power;
  return 10 * power;
}

export const METRIC_INFO: Record<Metric, MetricInfo> = {
  germination: {
    id: 'germination',
    unit: '%',
    rate: true,
    better: 'higher',
    binWidth: () => 2.5,
    value: (r) => r.germination,
  },
  usable: {
    id: 'usable',
    unit: '%',
    rate: true,
    better: 'higher',
    binWidth: () => 2.5,
    value: (r) => r.usable,
  },
  cv: {
    id: 'cv',
    unit: '%',
    rate: false,
    better: 'lower',
    binWidth: (lo, hi) => niceWidth(lo, hi),
    value: (r) => r.cv,
  },
  size: {
    id: 'size',
    unit: 'mm²',
    rate: false,
    better: null,
    binWidth: (lo, hi) => niceWidth(lo, hi),
    value: (r) => r.size,
  },
};

/**
 * A value with its unit as people read it, up to `digits` decimals: a percent as the table and cards write one
 * (`72.5%` in English, `72,5 %` in German), a size in mm² (`120 mm²`).
 */
export function formatValue(metric: Metric, v: number, f: Formats, digits = 2): string {
  return METRIC_INFO[metric].unit === '%' ? f.percentUpTo(v, digits) : `${f.number(v, digits)} mm²`;
}

/**
 * A value shown beside its verdict: with enough decimals that the rounded figure lies on the same side of the
 * target as the value itself (a mean of 89.996 % below a 90 % target reads `89.996%`, not `90%`).
 */
export function formatJudged(metric: Metric, v: number, target: number | null, f: Formats): string {
  const misses = missesTarget(metric, v, target);
  for (let digits = 2; digits < 6; digits++) {
    const rounded = Math.round(v * 10 ** digits) / 10 ** digits;
    if (missesTarget(metric, rounded, target) === misses && (rounded !== target || !misses))
      return formatValue(metric, v, f, digits);
  }
  return formatValue(metric, v, f, 6);
}

/** An axis tick: a percent with its sign (`90%`, `90 %`), a size as a plain number (the axis title names mm²). */
export function formatTick(metric: Metric, v: number, f: Formats): string {
  return METRIC_INFO[metric].unit === '%' ? f.percentUpTo(v) : f.number(v);
}

/** An axis title: the metric, with its unit where the ticks do not carry it (`Median seedling size (mm²)`). */
export function axisTitle(metric: Metric, { t }: Pick<Speech, 't'>): string {
  const label = t(`metrics.${metric}.label`);
  return METRIC_INFO[metric].unit === '%' ? label : `${label} (${METRIC_INFO[metric].unit})`;
}

/** A range of the metric as a chip names it: `Germination 70–72.5%`, `Keimrate 70–72,5 %`, `Size 100–150 mm²`. */
export function describeBin(metric: Metric, lo: number, hi: number, { f, t }: Speech): string {
  const range = METRIC_INFO[metric].unit === '%' ? f.percentRange(lo, hi) : `${f.number(lo)}–${f.number(hi)} mm²`;
  return t('bin', { metric: t(`metrics.${metric}.short`), range });
}

/**
 * In the bin `lo`–`hi`: from `lo` up to but not including `hi`, except that a rate's last bin holds 100 %
 * itself (a perfect tray belongs in the top bin, not in a bin of its own).
 */
export function inBin(metric: Metric, v: number | null, lo: number, hi: number): boolean {
  if (v === null) return false;
  return v >= lo && (v < hi || (METRIC_INFO[metric].rate && hi >= 100 && v <= hi));
}

/** The target (for CV: the threshold) a batch of `crop` is judged against for `metric` (null: none; size has none). */
export function metricTarget(targets: Targets, crop: string | null, metric: Metric): number | null {
  return metric === 'size' ? null : targetFor(targets, crop, metric);
}

/** On the wrong side of its target: under it for a rate, over it for CV. */
export function missesTarget(metric: Metric, v: number | null, target: number | null): boolean {
  if (v === null || target === null) return false;
  return METRIC_INFO[metric].better === 'lower' ? v > target : v < target;
}

/** What a target for `metric` is called: a target for rates, a threshold for CV (`analysis.targetWord.<kind>`). */
export function targetKind(metric: Metric): 'target' | 'threshold' {
  return metric === 'cv' ? 'threshold' : 'target';
}

/**
 * An axis from about `lo` to `hi` with round ticks (a step of 1, 2, 2.5 or 5 times a power of ten, about
 * `count` of them), kept within `floor`–`ceiling`.
 */
export function niceAxis(
  lo: number,
  hi: number,
  count = 5,
  floor = -Infinity,
  ceiling = Infinity,
): { domain: [number, number]; ticks: number[] } {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const a = Math.max(floor, Math.floor(lo / step) * step);
  const b = Math.min(ceiling, Math.ceil(hi / step) * step);
  const ticks: number[] = [];
  for (let t = a; t <= b + step / 1e6; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return { domain: [a, b], ticks };
}
