import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { densityMarks, MARK_BUDGET, MIXED, type Density } from '@/lib/explorer/density';
import { passesDrill } from '@/lib/explorer/drill';
import { toRow, type Row } from '@/lib/explorer/rows';
import { generateBatches } from '@/sandbox/data/generate';

const generated = generateBatches({ seed: 'density', count: 100_000, anchorMs: Date.UTC(2026, 5, 1), scanners: ['a@x.example'], reportBaseUrl: 'https://r.example' });
const all = generated.map(toRow);
const base = generated[0]!;
const two = (v: number) => v.toFixed(2);
/** A batch at germination `g` and CV `cv` (hundredths, as the service writes them); null: not recorded. */
const at = (g: number | null, cv: number | null, crop: string | null = 'Lettuce', size: number | null = 100): Row =>
  toRow({ ...base, avg_germination_rate: g === null ? null : two(g), avg_coefficient_of_variation: cv === null ? null : two(cv), crop_type: crop, avg_median_seedling_size_mm2: size === null ? null : two(size) });

/** The mark of each drawn row: a point, or the density cell whose bins (as a drill-down reads them) hold it. */
function checkPartition(rows: readonly Row[], d: Density) {
  expect(d.points.length + d.cells.length).toBeLessThanOrEqual(MARK_BUDGET);
  const drawn = rows.filter((r) => r.germination !== null && r.cv !== null);
  expect(d.drawn).toBe(drawn.length);
  expect(d.undrawn).toBe(rows.length - drawn.length);
  const pointRows = new Set(d.points.map((p) => p.row));
  expect(pointRows.size).toBe(d.points.length);
  expect(d.points.length + d.cells.reduce((n, c) => n + c.count, 0)).toBe(drawn.length);
  // Each cell holds exactly its count of the non-point rows, by the same rule the `bins=` drill-down applies.
  const inCell = new Map<Row, number>();
  d.cells.forEach((c, i) => {
    const drill = { bins: [{ metric: 'germination' as const, lo: c.g0, hi: c.g1 }, { metric: 'cv' as const, lo: c.c0, hi: c.c1 }], within: null, scanner: undefined };
    const held = drawn.filter((r) => passesDrill(r, drill));
    expect(held.length).toBe(c.count);
    for (const r of held) {
      expect(pointRows.has(r)).toBe(false);
      expect(inCell.has(r)).toBe(false);
      inCell.set(r, i);
    }
  });
  expect(inCell.size + pointRows.size).toBe(drawn.length);
}

describe('germination vs uniformity marks', () => {
  it('100,000 batches: at most 2,000 marks, each batch in exactly one', () => {
    const d = densityMarks(all);
    expect(d.cells.length).toBeGreaterThan(0);
    expect(d.points.length).toBeGreaterThan(0);
    expect(d.points.length + d.cells.length).toBeLessThanOrEqual(MARK_BUDGET);
    expect(d.points.length + d.cells.reduce((n, c) => n + c.count, 0) + d.undrawn).toBe(all.length);
    // The cell by cell check reads every row per cell: on a fifth of them, to keep the test quick.
    const part = all.slice(0, 20_000);
    checkPartition(part, densityMarks(part));
  });

  it('few batches are all points; a cell of many is one cell with its majority crop and median size', () => {
    const few = [at(90, 10), at(80, 20), at(null, 20), at(70, null)];
    const d = densityMarks(few);
    expect([d.points.length, d.cells.length, d.drawn, d.undrawn]).toEqual([2, 0, 2, 2]);
    const crowd = [...Array.from({ length: 30 }, (_, i) => at(92.5 + (i % 5) / 10, 10.1, i < 20 ? 'Lettuce' : 'Tomato', 100 + i)), at(30, 60)];
    const small = densityMarks(crowd, 10);
    expect(small.cells).toHaveLength(1);
    expect(small.cells[0]).toMatchObject({ count: 30, crop: 'Lettuce', size: 114.5 });
    expect(small.points.map((p) => p.germination)).toEqual([30]);
    const mixed = densityMarks(Array.from({ length: 30 }, (_, i) => at(92.5, 10.1, ['A', 'B', 'C'][i % 3]!)), 10);
    expect(mixed.cells[0]!.crop).toBe(MIXED);
  });

  it('a value on a bin edge lands in the cell a drill-down of that cell finds, 100 % in the top bin', () => {
    const edges = [at(100, 0.6), at(97.5, 0.6), at(0, 0), ...Array.from({ length: 40 }, (_, i) => at(100 - (i % 4) * 1.25, 0.2 * (i % 10)))];
    checkPartition(edges, densityMarks(edges, 5));
  });

  it('for any batches up to 100,000: within the budget, each batch in one mark, an isolated outlier a point', () => {
    const batch = fc.record({
      g: fc.option(fc.integer({ min: 3000, max: 10_000 }), { nil: null, freq: 20 }),
      cv: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: null, freq: 20 }),
      crop: fc.constantFrom('Lettuce', 'Tomato', 'Basil', null),
    });
    fc.assert(
      fc.property(
        fc.array(batch, { maxLength: 3000 }),
        fc.integer({ min: 0, max: 100_000 - 3000 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 999 }),
        (list, bulk, clusters, outlierG) => {
          // Much of 100,000 taken from the generator (dense where it is dense), the rest arbitrary, plus an
          // outlier below every other germination by more than the coarsest cell (10 points).
          const rows = [...all.slice(0, bulk * (clusters ? 1 : 0)), ...list.map((b) => at(b.g === null ? null : b.g / 100, b.cv === null ? null : b.cv / 100, b.crop))];
          const outlier = at(outlierG / 100, 55, 'Outlier');
          rows.splice(rows.length >> 1, 0, outlier);
          const d = densityMarks(rows);
          expect(d.points.length + d.cells.length).toBeLessThanOrEqual(MARK_BUDGET);
          expect(d.points.length + d.cells.reduce((n, c) => n + c.count, 0)).toBe(d.drawn);
          expect(new Set(d.points.map((p) => p.row)).size).toBe(d.points.length);
          expect(d.points.some((p) => p.row === outlier)).toBe(true);
          if (rows.length < 4000) checkPartition(rows, d);
        },
      ),
      { numRuns: 25 },
    );
  });
});
