import { TARGET_METRICS, targetFor, type TargetMetric, type Targets } from '../../contract/targets';

/** A target in force for a crop, and where it comes from: the crop's own, the general one it falls back to, or none. */
export type EffectiveTarget = { value: number | null; source: 'own' | 'general' | null };

/** The targets a batch of `crop` is judged by (null: the general ones themselves), each with its source. */
export function effectiveTargets(targets: Targets, crop: string | null): Record<TargetMetric, EffectiveTarget> {
  const out = {} as Record<TargetMetric, EffectiveTarget>;
  for (const m of TARGET_METRICS) {
    const own = crop === null ? null : (targets.crops[crop]?.[m] ?? null);
    const value = targetFor(targets, crop, m);
    out[m] = { value, source: value === null ? null : own !== null ? 'own' : 'general' };
  }
  return out;
}

/**
 * The crops whose targets a report lists: those of the batches shown and those with a target of their own, each
 * once, in the crop list's order. `skip` is the key of batches without a crop (judged by the general targets).
 */
export function cropsToList(targets: Targets, crops: readonly string[], skip: string): string[] {
  const own = Object.entries(targets.crops)
    .filter(([, p]) => p.germination !== null || p.usable !== null || p.cv !== null)
    .map(([c]) => c);
  return [...new Set([...crops.filter((c) => c !== skip), ...own])].sort((a, b) => a.localeCompare(b));
}
