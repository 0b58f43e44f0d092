import { targetFor, type RateTargetMetric, type Targets } from '../contract/targets';
import type { Row } from './rows';

const percent = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const NAMES: Record<RateTargetMetric, string> = { germination: 'germination', usable: 'usable-seedling' };

/**
 * One batch against its own crop's target, in the words an agronomist would use:
 * `Below the Lettuce germination target of 80 %`, `Meets …`, `No germination target set`.
 */
export function verdict(row: Row, targets: Targets, metric: RateTargetMetric): { text: string; below: boolean; target: number | null } {
  const crop = row.batch.crop_type;
  const target = targetFor(targets, crop, metric);
  const name = NAMES[metric];
  if (target === null) return { text: `No ${name} target set`, below: false, target };
  const which = `the ${crop === null ? 'general' : crop} ${name} target of ${percent.format(target)} %`;
  const value = metric === 'germination' ? row.germination : row.usable;
  if (value === null) return { text: `No ${name} rate recorded to judge against ${which}`, below: false, target };
  return { text: `${value < target ? 'Below' : 'Meets'} ${which}`, below: value < target, target };
}
