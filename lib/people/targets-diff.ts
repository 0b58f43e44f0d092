import { TARGET_METRICS, type TargetMetric, type TargetPair, type Targets } from '../contract/targets';

/** One target that differs between two saved sets: general (crop null) or a crop's, from `before` to `after` (null: none). */
export type TargetChange = { crop: string | null; metric: TargetMetric; before: number | null; after: number | null };

const NONE: TargetPair = { germination: null, usable: null, cv: null };

/** What changed from `before` to `after`: the general targets first, then the crops by name. */
export function targetChanges(before: Targets | null, after: Targets): TargetChange[] {
  const changes: TargetChange[] = [];
  const pairs = (crop: string | null, a: TargetPair | undefined, b: TargetPair | undefined) => {
    for (const metric of TARGET_METRICS) {
      const [from, to] = [(a ?? NONE)[metric], (b ?? NONE)[metric]];
      if (from !== to) changes.push({ crop, metric, before: from, after: to });
    }
  };
  pairs(null, before?.general, after.general);
  const crops = [...new Set([...Object.keys(before?.crops ?? {}), ...Object.keys(after.crops)])].sort((x, y) =>
    x.localeCompare(y),
  );
  for (const crop of crops) pairs(crop, before?.crops[crop], after.crops[crop]);
  return changes;
}
