import type { Row } from './rows';

/**
 * What every chart can show: the **Metric** select switches them all. Rates are percentages of a tray
 * (0–100, higher is better); CV is the coefficient of variation of seedling size in percent (lower is more
 * even); size is the median seedling size in mm².
 */
export const METRICS = ['germination', 'usable', 'cv', 'size'] as const;
export type Metric = (typeof METRICS)[number];

export type MetricInfo = {
  id: Metric;
  /** As a select option and a chart title: "Germination rate". */
  label: string;
  /** As a chip or a table header: "Germination". */
  short: string;
  unit: '%' | 'mm²';
  /** A share of the tray: differences are percentage points, and the scale ends at 100. */
  rate: boolean;
  /** Higher values are better (rates), lower are better (CV), or neither (size). */
  better: 'higher' | 'lower' | null;
  /** The width of a distribution bin. */
  binWidth: (lo: number, hi: number) => number;
  value: (r: Row) => number | null;
};

/** A width from 1, 2, 2.5 or 5 times a power of ten that cuts `lo`–`hi` into about 20–40 bins. */
function niceWidth(lo: number, hi: number): number {
  const raw = Math.max(hi - lo, 1e-9) / 30;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const step of [1, 2, 2.5, 5, 10]) if (raw <= step * power) return step * power;
  return 10 * power;
}

export const METRIC_INFO: Record<Metric, MetricInfo> = {
  germination: {
    id: 'germination', label: 'Germination rate', short: 'Germination', unit: '%', rate: true, better: 'higher',
    binWidth: () => 2.5, value: (r) => r.germination,
  },
  usable: {
    id: 'usable', label: 'Usable-seedling rate', short: 'Usable', unit: '%', rate: true, better: 'higher',
    binWidth: () => 2.5, value: (r) => r.usable,
  },
  cv: {
    id: 'cv', label: 'CV of seedling size', short: 'CV', unit: '%', rate: false, better: 'lower',
    binWidth: niceWidth, value: (r) => r.cv,
  },
  size: {
    id: 'size', label: 'Median seedling size', short: 'Size', unit: 'mm²', rate: false, better: null,
    binWidth: niceWidth, value: (r) => r.size,
  },
};

const one = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

/** A value with its unit as people read it: `72.5 %`, `120 mm²`. */
export function formatValue(metric: Metric, v: number): string {
  return `${one.format(v)} ${METRIC_INFO[metric].unit}`;
}

/** A range of the metric as a chip names it: `Germination 70–72.5 %`. */
export function describeBin(metric: Metric, lo: number, hi: number): string {
  const info = METRIC_INFO[metric];
  return `${info.short} ${one.format(lo)}–${one.format(hi)} ${info.unit}`;
}

/**
 * In the bin `lo`–`hi`: from `lo` up to but not including `hi`, except that a rate's last bin holds 100 %
 * itself (a perfect tray belongs in the top bin, not in a bin of its own).
 */
export function inBin(metric: Metric, v: number | null, lo: number, hi: number): boolean {
  if (v === null) return false;
  return v >= lo && (v < hi || (METRIC_INFO[metric].rate && hi >= 100 && v <= hi));
}
