/*
 * Which of its targets a batch misses: the one rule behind the Below target card, filter, table column, grouped
 * summary, exports and print. A batch misses a target when its germination rate is below its crop's germination
 * target, its usable-seedling rate below its crop's usable-seedling target, or its CV above its crop's CV
 * threshold, each only where that target is set (an empty crop target falls back to the general one, targetFor)
 * and the figure recorded.
 */
import { TARGET_METRICS, targetFor, type TargetMetric, type Targets } from '../../contract/targets';
import { NULL as STORE_NULL, ODD as STORE_ODD, type RowStore, type StoredRow } from '../row-store';

// The store's markers as local constants: an imported binding may be read through a getter on every use.
const NULL = STORE_NULL,
  ODD = STORE_ODD;

/** The kinds of target, in the order the page names them. */
export const MISS_KINDS = TARGET_METRICS;
export type MissKind = TargetMetric;

/** One bit per kind missed, and one per kind judged (its target set and the figure recorded). */
export const MISSED: Readonly<Record<MissKind, number>> = { germination: 1, usable: 2, cv: 4 };
export const JUDGED_BY: Readonly<Record<MissKind, number>> = { germination: 8, usable: 16, cv: 32 };
/** Any kind missed; any kind judged. */
export const ANY_MISS = 7;
export const JUDGED = 56;

/** The Below target filter (`below=`): `1` (links made before the kinds existed) is any target. */
export type BelowFilter = '1' | MissKind;
/** The filter's choice as its words name it (`explorer.filters.belowKinds`). */
export const belowChoice = (below: BelowFilter): 'any' | MissKind => (below === '1' ? 'any' : below);
/** The bits a batch must have one of to pass the filter. */
export const missMask = (below: BelowFilter): number => (below === '1' ? ANY_MISS : MISSED[below]);

/** Which targets these figures miss and which they are judged by (MISSED and JUDGED_BY bits), by one crop's targets. */
export function missesOf(g: number | null, u: number | null, cv: number | null, t: CropTargets): number {
  let bits = 0;
  if (g !== null && t.germination !== null) bits |= 8 | (g < t.germination ? 1 : 0);
  if (u !== null && t.usable !== null) bits |= 16 | (u < t.usable ? 2 : 0);
  if (cv !== null && t.cv !== null) bits |= 32 | (cv > t.cv ? 4 : 0);
  return bits;
}

/** The targets a batch of `crop` is judged by (null: none set, here or in general). */
export function cropTargets(targets: Targets, crop: string | null): CropTargets {
  return {
    germination: targetFor(targets, crop, 'germination'),
    usable: targetFor(targets, crop, 'usable'),
    cv: targetFor(targets, crop, 'cv'),
  };
}
type CropTargets = { germination: number | null; usable: number | null; cv: number | null };

/** missesOf one row (the table's cells, the detail); loops over many use missLookup. */
export function missesOfRow(r: Pick<StoredRow, 'germination' | 'usable' | 'cv' | 'crop'>, targets: Targets): number {
  return missesOf(r.germination, r.usable, r.cv, cropTargets(targets, r.crop));
}

/** Each store's rows' bits for the targets last asked about (rows are only ever added: new ones are judged on demand). */
const judged = new WeakMap<RowStore, { targets: Targets; bits: Uint8Array; length: number }>();

/**
 * `missesOf` for every row of `store` by index, kept until other targets are asked about: a filter or summary then
 * reads one byte per row (typing in Search filters and sums up a million rows per keystroke with the same targets).
 */
function storeMisses(store: RowStore, targets: Targets): { bits: Uint8Array; length: number } {
  let kept = judged.get(store);
  if (!kept || kept.targets !== targets) judged.set(store, (kept = { targets, bits: new Uint8Array(0), length: 0 }));
  const n = store.length;
  if (kept.length < n) {
    if (kept.bits.length < n) {
      const bits = new Uint8Array(Math.max(n, kept.bits.length * 2));
      bits.set(kept.bits.subarray(0, kept.length));
      kept.bits = bits;
    }
    judgeRows(store, targets, kept.length, n, kept.bits);
    kept.length = n;
  }
  return kept;
}

/**
 * Rows `from` to `to` of `store` judged into `out`: each crop's targets looked up once and the figures read from the
 * store's columns as hundredths (a target has at most two decimals, so they compare exactly); a value the store
 * kept aside (ODD) is read through its getter.
 */
function judgeRows(store: RowStore, targets: Targets, from: number, to: number, out: Uint8Array) {
  const { crop, germination: g, usable: u, cv: c, crops } = store.columns();
  const ofCrop = (name: string | null) => cropTargets(targets, name);
  // By crop id + 1 (0: no crop), NaN where no target is set.
  const n = crops.length + 1;
  const gt = new Float64Array(n),
    ut = new Float64Array(n),
    ct = new Float64Array(n);
  const cents = (v: number | null) => (v === null ? NaN : Math.round(v * 100));
  for (let k = 0; k < n; k++) {
    const t = ofCrop(k === 0 ? null : crops[k - 1]!);
    gt[k] = cents(t.germination);
    ut[k] = cents(t.usable);
    ct[k] = cents(t.cv);
  }
  for (let i = from; i < to; i++) {
    const id = crop[i]! + 1;
    const gi = g[i]!,
      ui = u[i]!,
      ci = c[i]!;
    if (id < 0 || gi === ODD || ui === ODD || ci === ODD) {
      const figure = (field: 'avg_germination_rate' | 'avg_usable_seedling_rate' | 'avg_coefficient_of_variation') =>
        store.number(i, field);
      out[i] = missesOf(
        figure('avg_germination_rate'),
        figure('avg_usable_seedling_rate'),
        figure('avg_coefficient_of_variation'),
        ofCrop(store.cropOf(i)),
      );
      continue;
    }
    // missesOf in hundredths, its bits written out (NaN: no target, `x === x` false).
    const tg = gt[id]!,
      tu = ut[id]!,
      tc = ct[id]!;
    let bits = 0;
    if (gi !== NULL && tg === tg) bits |= gi < tg ? 9 : 8;
    if (ui !== NULL && tu === tu) bits |= ui < tu ? 18 : 16;
    if (ci !== NULL && tc === tc) bits |= ci > tc ? 36 : 32;
    out[i] = bits;
  }
}

/** `missesOf` for rows (of any stores), read from their store's judged rows: nothing worked out twice, nothing allocated per row. */
export function missLookup(targets: Targets): (r: StoredRow) => number {
  let store: RowStore | null = null;
  let bits: Uint8Array = new Uint8Array(0),
    length = 0;
  return (r) => {
    const i = r.index;
    if (r.store !== store || i >= length) ({ bits, length } = storeMisses((store = r.store), targets));
    return bits[i]!;
  };
}

/** The kinds in `bits`, in MISS_KINDS order. */
export function missedKinds(bits: number): MissKind[] {
  return MISS_KINDS.filter((k) => (bits & MISSED[k]) !== 0);
}

/** How many kinds `bits` misses. */
export const missCount = (bits: number): number => (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1);

/** From rows counted by their bits (64 combinations): the batches missing and judged by each kind, and by any. */
export function missTally(counts: Float64Array): {
  below: number;
  judged: number;
  belowBy: Record<MissKind, number>;
  judgedBy: Record<MissKind, number>;
} {
  const count = (test: (bits: number) => boolean) => {
    let n = 0;
    for (let bits = 0; bits < 64; bits++) if (test(bits)) n += counts[bits]!;
    return n;
  };
  const by = (bit: Record<MissKind, number>) =>
    Object.fromEntries(MISS_KINDS.map((k) => [k, count((bits) => (bits & bit[k]) !== 0)])) as Record<MissKind, number>;
  return {
    below: count((bits) => (bits & ANY_MISS) !== 0),
    judged: count((bits) => (bits & JUDGED) !== 0),
    belowBy: by(MISSED),
    judgedBy: by(JUDGED_BY),
  };
}
