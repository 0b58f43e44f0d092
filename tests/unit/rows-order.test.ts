import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overTime } from '@/lib/explorer/aggregate';
import {
  compareCreation,
  filterRows,
  keepOnly,
  mergeInCreationOrder,
  sortRows,
  toRow,
  type Row,
} from '@/lib/explorer/rows';
import { generateBatches } from '@/sandbox/data/generate';
import { DEFAULT_TARGETS, type Targets } from '@/lib/contract/targets';

/** One general germination target, no crop of its own. */
const only = (germination: number): Targets => ({ general: { germination, usable: null, cv: null }, crops: {} });

const generated = generateBatches({
  seed: 'order',
  count: 5000,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
});
// Ties on the creation instant, to check the batch_id tie-break.
const batches = [...generated, ...generated.slice(0, 50).map((b) => ({ ...b, batch_id: `${b.batch_id}-twin` }))];

/** A deterministic shuffle: the order in which parallel parts could deliver the rows. */
function shuffled<T>(xs: T[], seed = 7): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const inOrder = batches.map(toRow).sort(compareCreation);

describe('rows arriving out of order', () => {
  it('merging chunks in any order gives creation order, ties by batch_id', () => {
    const rows = shuffled(batches.map(toRow));
    let ordered: Row[] = [];
    for (let i = 0; i < rows.length; i += 337) ordered = mergeInCreationOrder(ordered, rows.slice(i, i + 337));
    expect(ordered.map((r) => r.batch.batch_id)).toEqual(inOrder.map((r) => r.batch.batch_id));
    const unordered = ordered.flatMap((r, i) => (i > 0 && compareCreation(ordered[i - 1]!, r) >= 0 ? [i] : []));
    expect(unordered).toEqual([]);
  });

  it('sorts numbers and text with nulls last both ways, ties in creation order', () => {
    for (const field of [
      'avg_germination_rate',
      'avg_coefficient_of_variation',
      'crop_type',
      'batch_name',
      'total_cells_per_tray',
    ] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const sorted = sortRows(inOrder, field, dir, DEFAULT_TARGETS);
        expect(sorted).toHaveLength(inOrder.length);
        const key = (r: Row) => {
          const v = r.batch[field];
          return v === null
            ? null
            : typeof v === 'number'
              ? v
              : field === 'crop_type' || field === 'batch_name'
                ? v.toLowerCase()
                : Number(v);
        };
        const position = new Map(inOrder.map((r, i) => [r, i]));
        // Every adjacent pair checked; the ones out of order listed (one expect, not one per row).
        const wrong: string[] = [];
        for (let i = 1; i < sorted.length; i++) {
          const a = key(sorted[i - 1]!),
            b = key(sorted[i]!);
          if (b === null) continue;
          if (a === null) wrong.push(`${field} ${dir} at ${i}: a null before a value`);
          else if (a === b) {
            if (position.get(sorted[i - 1]!)! > position.get(sorted[i]!)!)
              wrong.push(`${field} ${dir} at ${i}: a tie out of creation order`);
          } else if ((a < b ? -1 : 1) * (dir === 'asc' ? 1 : -1) !== -1)
            wrong.push(`${field} ${dir} at ${i}: ${a} before ${b}`);
        }
        expect(wrong).toEqual([]);
      }
    }
    expect(sortRows(inOrder, 'batch_creation_date', 'desc', DEFAULT_TARGETS)).toEqual([...inOrder].reverse());
  });

  it('narrows a sorted list to the filtered rows without re-sorting, and returns the same list when nothing is filtered', () => {
    const filter = { q: 'tom', crop: undefined, warn: undefined, below: undefined, targets: only(90) };
    const sorted = sortRows(inOrder, 'avg_germination_rate', 'desc', DEFAULT_TARGETS);
    expect(keepOnly(sorted, filterRows(inOrder, filter))).toEqual(filterRows(sorted, filter));
    const none = { ...filter, q: '  ' };
    expect(filterRows(inOrder, none)).toBe(inOrder);
    expect(keepOnly(sorted, filterRows(inOrder, none))).toBe(sorted);
  });
});

describe('germination over time, in any row order and across DST', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Europe/Berlin';
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  it.each([
    ['day', 20],
    ['week', 400],
  ])('%s buckets', (bucket, days) => {
    const last = inOrder.at(-1)!.time;
    const rows = inOrder.filter((r) => r.time > last - days * 86_400_000);
    for (const z of ['Europe/Berlin', 'UTC', 'Asia/Kolkata']) {
      const expected = overTime(rows, 'germination', z, null);
      expect(expected.bucket).toBe(bucket);
      const got = overTime(shuffled(rows), 'germination', z, null);
      expect(got.crops.map((c) => c.crop)).toEqual(expected.crops.map((c) => c.crop));
      expect(got.starts).toEqual(expected.starts);
      // Sums taken in another order may round the last digit the other way.
      got.crops.forEach((c, ci) => {
        c.values.forEach((v, i) => {
          const want = expected.crops[ci]!.values[i]!;
          if (want === null) expect(v).toBeNull();
          else expect(Math.abs(v! - want)).toBeLessThanOrEqual(1e-9);
        });
      });
    }
  });
});
