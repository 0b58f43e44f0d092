import { DEFAULT_TARGETS, targetFor } from '../../lib/contract';
import { api, APP_URL, signIn, walkApi, type ApiBatch } from './support';

/**
 * Figures the grouping and comparison specs expect, worked out here from the API's batches and not through the
 * app's modules: a batch weighs its cells per tray; one whose tray size is unknown weighs the mean known tray of
 * the batches summarized together (lib/explorer/rows.ts summarize).
 */
export function weightedGermination(batches: readonly ApiBatch[]): number | null {
  const known = batches.map((b) => b.total_cells_per_tray as number | null).filter((c): c is number => c !== null);
  const fallback = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  let weights = 0,
    sum = 0;
  for (const b of batches) {
    if (b.avg_germination_rate === null) continue;
    const w = (b.total_cells_per_tray as number | null) ?? fallback;
    weights += w;
    sum += w * Number(b.avg_germination_rate);
  }
  return weights ? sum / weights : null;
}

/** Batches below their own crop's germination target (the default targets). */
export function belowCount(batches: readonly ApiBatch[]): number {
  return batches.filter((b) => {
    const target = targetFor(DEFAULT_TARGETS, b.crop_type as string | null, 'germination');
    return b.avg_germination_rate !== null && target !== null && Number(b.avg_germination_rate) < target;
  }).length;
}

const one = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** One decimal, as people read it in the app (`91.3`). */
export const oneDecimal = (v: number) => one.format(v);

/** The calendar day `n` days before today, in UTC. */
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** Every batch created on the UTC days from..to, through the app's own API. */
export async function batchesOn(cookie: string, from: string, to: string): Promise<ApiBatch[]> {
  return (await walkApi(cookie, { start_date: `${from}T00:00:00Z`, end_date: `${to}T23:59:59.999999Z` })).batches;
}

/** The organisation's targets back to the defaults (other specs save their own). */
export async function resetTargets() {
  const cookie = await signIn();
  const response = await api('/api/settings/targets', {
    method: 'PUT',
    cookie,
    json: { targets: DEFAULT_TARGETS },
    headers: { origin: APP_URL },
  });
  if (response.status !== 200) throw new Error(`targets: ${response.status}`);
}

/**
 * The out-of-control batches of `crop`'s germination, worked out here from the API's batches with the rules
 * the control charts state (not through lib/explorer/spc.ts, so that this is a check of it): limits at
 * centre ± 3 MR̄ / 1.128 from the first 50 batches without warnings; out of control beyond them, and with
 * `runs` also in a run of 8+ on one side of the centre. `all`: the crop's batches, with or without a rate; `crop`
 * null: the batches without a crop. `firstName`, `firstBeyond`: the first batch out of control (null: none is).
 */
export function outOfControl(batches: readonly ApiBatch[], crop: string | null, rules: 'limits' | 'runs' = 'runs') {
  const all = batches.filter((b) => b.crop_type === crop).length;
  const points = batches
    .filter((b) => b.crop_type === crop && b.avg_germination_rate !== null)
    .map((b) => ({ name: String(b.batch_name), v: Number(b.avg_germination_rate), warned: b.warnings === true }));
  const base = points
    .filter((p) => !p.warned)
    .slice(0, 50)
    .map((p) => p.v);
  const centre = base.reduce((s, v) => s + v, 0) / base.length;
  const sigma = base.slice(1).reduce((s, v, i) => s + Math.abs(v - base[i]!), 0) / (base.length - 1) / 1.128;
  const ucl = centre + 3 * sigma,
    lcl = centre - 3 * sigma;
  const out = new Set<number>();
  points.forEach((p, i) => (p.v > ucl || p.v < lcl) && out.add(i));
  const beyond = out.size;
  const firstBeyond = out.size ? points[Math.min(...out)]!.name : null;
  for (let i = 0; rules === 'runs' && i < points.length;) {
    const side = Math.sign(points[i]!.v - centre);
    let j = i;
    while (side !== 0 && j + 1 < points.length && Math.sign(points[j + 1]!.v - centre) === side) j++;
    if (side !== 0 && j - i + 1 >= 8) for (let k = i; k <= j; k++) out.add(k);
    i = j + 1;
  }
  const firstName = out.size ? points[Math.min(...out)]!.name : null;
  return {
    all,
    total: points.length,
    count: out.size,
    beyond,
    firstName,
    firstBeyond,
    centre,
    ucl,
    lcl,
    baseline: base.length,
  };
}
