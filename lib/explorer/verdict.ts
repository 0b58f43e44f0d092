import { targetFor, type RateTargetMetric, type Targets } from '../contract/targets';
import type { Row } from './rows';

/**
 * One batch against its own crop's target, as facts the page puts in words: `below` (the rate is under the
 * target), `meets`, `unrecorded` (no rate to judge), `none` (no target set). `crop` is null when the general
 * target applies (a batch without a crop).
 */
export type Verdict = {
  kind: 'below' | 'meets' | 'unrecorded' | 'none';
  metric: RateTargetMetric;
  crop: string | null;
  target: number | null;
  below: boolean;
};

export function verdict(row: Row, targets: Targets, metric: RateTargetMetric): Verdict {
  const crop = row.crop;
  const target = targetFor(targets, crop, metric);
  const facts = { metric, crop, target, below: false };
  if (target === null) return { ...facts, kind: 'none' };
  const value = metric === 'germination' ? row.germination : row.usable;
  if (value === null) return { ...facts, kind: 'unrecorded' };
  return value < target ? { ...facts, kind: 'below', below: true } : { ...facts, kind: 'meets' };
}

type VerdictKey = `${RateTargetMetric}.${'none' | 'below' | 'belowGeneral' | 'meets' | 'meetsGeneral' | 'unrecorded' | 'unrecordedGeneral'}`;

/**
 * The verdict in words (`Below the Lettuce germination target of 80%`): `say` is the `explorer.verdict`
 * messages' translator, `percent` writes the target as a percent in the reader's notation (`80%`, `80 %`).
 */
export function sayVerdict(v: Verdict, say: (key: VerdictKey, values: { crop: string; target: string }) => string, percent: (n: number) => string): string {
  const values = { crop: v.crop ?? '', target: v.target === null ? '' : percent(v.target) };
  if (v.kind === 'none') return say(`${v.metric}.none`, values);
  return say(`${v.metric}.${v.kind}${v.crop === null ? 'General' : ''}`, values);
}
