import { targetFor, type TargetMetric, type Targets } from '../contract/targets';
import type { Row } from './rows';
import { digitsBesideTarget } from './targets/digits-beside-target';

/**
 * One batch against its own crop's target, as facts the page puts in words: `misses` (a rate under its target,
 * the CV over its threshold), `meets`, `unrecorded` (no figure to judge), `none` (no target set). `crop` is null
 * when the general target applies (a batch without a crop). The same rule as targets/misses.ts.
 */
export type Verdict = {
  kind: 'misses' | 'meets' | 'unrecorded' | 'none';
  metric: TargetMetric;
  crop: string | null;
  target: number | null;
  /** The figure judged (null: none recorded). */
  value: number | null;
  misses: boolean;
};

/** The figure a target of `metric` judges. */
export const judgedFigure = (row: Row, metric: TargetMetric): number | null =>
  metric === 'germination' ? row.germination : metric === 'usable' ? row.usable : row.cv;

export function verdict(row: Row, targets: Targets, metric: TargetMetric): Verdict {
  const crop = row.crop;
  const target = targetFor(targets, crop, metric);
  const value = judgedFigure(row, metric);
  const facts = { metric, crop, target, value, misses: false };
  if (target === null) return { ...facts, kind: 'none' };
  if (value === null) return { ...facts, kind: 'unrecorded' };
  const misses = metric === 'cv' ? value > target : value < target;
  return misses ? { ...facts, kind: 'misses', misses } : { ...facts, kind: 'meets' };
}

type Said = 'none' | 'misses' | 'missesGeneral' | 'meets' | 'meetsGeneral' | 'unrecorded' | 'unrecordedGeneral';
type VerdictKey = `${TargetMetric}.${Said}`;

/**
 * The verdict in words (`Below the Lettuce germination target of 80%`, `Above the general CV threshold of 30%`):
 * `say` is the `explorer.verdict` messages' translator, `percent` writes the target as a percent in the reader's
 * notation (`80%`, `80 %`).
 */
export function sayVerdict(
  v: Verdict,
  say: (key: VerdictKey, values: { crop: string; target: string }) => string,
  percent: (n: number) => string,
): string {
  const values = { crop: v.crop ?? '', target: v.target === null ? '' : percent(v.target) };
  if (v.kind === 'none') return say(`${v.metric}.none`, values);
  return say(`${v.metric}.${v.kind}${v.crop === null ? 'General' : ''}`, values);
}

/** The judged figure in percent, with as many decimals as it takes not to contradict its verdict (digitsBesideTarget). */
export function verdictFigure(v: Verdict, percent: (value: number | null, digits?: number) => string): string {
  return percent(
    v.value,
    v.value === null ? 1 : digitsBesideTarget(v.value, v.target, v.metric === 'cv' ? 'lower' : 'higher'),
  );
}
