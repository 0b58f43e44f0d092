import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, type Targets } from '@/lib/contract';
import { passesDrill } from '@/lib/explorer/drill';
import { toRow, type Row } from '@/lib/explorer/rows';
import {
  BELOW,
  GERMINATION_WIDTH,
  gridOf,
  MIXED,
  OVER,
  POINT_LIMIT,
  scatterOf,
  type Scatter,
} from '@/lib/explorer/uniformity/scatter';
import { MISSED, missesOfRow } from '@/lib/explorer/targets/misses';
import { generateBatches } from '@/sandbox/data/generate';

const generated = generateBatches({
  seed: 'density',
  count: 100_000,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
});
const all = generated.map(toRow);
const base = generated[0]!;
const two = (v: number) => v.toFixed(2);
/** A batch at germination `g` and CV `cv` (hundredths, as the service writes them); null: not recorded. */
const at = (g: number | null, cv: number | null, crop: string | null = 'Lettuce', size: number | null = 100): Row =>
  toRow({
    ...base,
    avg_germination_rate: g === null ? null : two(g),
    avg_coefficient_of_variation: cv === null ? null : two(cv),
    crop_type: crop,
    avg_median_seedling_size_mm2: size === null ? null : two(size),
  });

/** Bell pepper's own targets, as the agronomists set them: 55 % germination, a CV threshold of 30 %. */
const TARGETS: Targets = {
  general: { germination: 90, usable: null, cv: 25 },
  crops: { 'Bell pepper': { germination: 55, usable: null, cv: 30 } },
};

/** Every drawn row in exactly one cell, each cell holding exactly what its `bins=` drill-down finds, all cells equal. */
function checkCells(rows: readonly Row[], s: Scatter) {
  const drawn = rows.filter((r) => r.germination !== null && r.cv !== null);
  expect(s.cells.reduce((n, c) => n + c.count, 0)).toBe(drawn.length);
  const seen = new Set<Row>();
  for (const c of s.cells) {
    expect(c.g1 - c.g0).toBeCloseTo(GERMINATION_WIDTH, 9);
    expect(c.c1 - c.c0).toBeCloseTo(s.cvWidth, 9);
    const drill = {
      bins: [
        { metric: 'germination' as const, lo: c.g0, hi: c.g1 },
        { metric: 'cv' as const, lo: c.c0, hi: c.c1 },
      ],
      within: null,
      scanner: undefined,
    };
    const held = drawn.filter((r) => passesDrill(r, drill));
    expect(held.length).toBe(c.count);
    for (const r of held) {
      expect(seen.has(r)).toBe(false);
      seen.add(r);
    }
  }
  expect(seen.size).toBe(drawn.length);
}

describe('germination vs uniformity', () => {
  it('judges each batch by its own crop’s target and threshold: a Bell pepper at 85 % meets its 55 %, a Tomato at 85 % misses 90 %', () => {
    const s = scatterOf(
      [
        at(85, 20, 'Bell pepper'),
        at(85, 20, 'Tomato'),
        at(50, 28, 'Bell pepper'),
        at(95, 28, 'Tomato'),
        at(null, 20, 'Tomato'),
      ],
      TARGETS,
    );
    expect(s.kind).toBe('points');
    expect(s.points.map((p) => [p.crop, p.verdict])).toEqual([
      ['Bell pepper', 0],
      ['Tomato', BELOW],
      ['Bell pepper', BELOW],
      ['Tomato', OVER],
    ]);
    expect([s.drawn, s.undrawn, s.thresholds]).toEqual([4, 1, true]);
    // Verdicts that occur, as bits: 0, BELOW and OVER, not both.
    expect(s.verdicts).toBe((1 << 0) | (1 << BELOW) | (1 << OVER));
    expect(scatterOf([at(85, 20, 'Tomato')], DEFAULT_TARGETS).thresholds).toBe(false);
  });

  it('judges by the rule the Below target card and the Off target column follow, a target of two decimals included', () => {
    // On the target and threshold themselves (meets, within), and a hundredth past both.
    const odd: Targets = { general: { germination: 57.3, usable: null, cv: 20.1 }, crops: {} };
    const rows = [...all.slice(0, 3_000), at(57.3, 20.1, 'Tomato'), at(57.29, 20.11, 'Tomato')];
    for (const targets of [TARGETS, odd]) {
      const s = scatterOf(rows, targets);
      for (const p of s.points) {
        const bits = missesOfRow(p.row, targets);
        expect([(p.verdict & BELOW) !== 0, (p.verdict & OVER) !== 0]).toEqual([
          (bits & MISSED.germination) !== 0,
          (bits & MISSED.cv) !== 0,
        ]);
      }
    }
    expect(scatterOf(rows.slice(-2), odd).points.map((p) => p.verdict)).toEqual([0, BELOW | OVER]);
  });

  it('up to the limit every batch is a point; beyond it, equal cells holding exactly what their drill-down shows', () => {
    const part = all.slice(0, 6_000);
    const points = scatterOf(part, TARGETS, 6_000);
    expect(points.kind).toBe('points');
    expect(points.points.length).toBe(points.drawn);
    const cells = scatterOf(part, TARGETS, 5_000);
    expect(cells.kind).toBe('cells');
    expect(cells.points).toHaveLength(0);
    checkCells(part, cells);
    // The table's grid for many points is the same grid.
    expect(gridOf(part, TARGETS, points)).toEqual(cells.cells);
  });

  it('a cell keeps a crop’s colour where that crop has over half of it, counts its misses, and takes the median size', () => {
    const crowd = [
      ...Array.from({ length: 6 }, (_, i) => at(86, 21, 'Bell pepper', 100 + i)),
      ...Array.from({ length: 4 }, () => at(86, 21, 'Tomato', 200)),
      ...Array.from({ length: 3 }, (_, i) => at(61, 41, ['A', 'B', 'C'][i]!, null)),
    ];
    const s = scatterOf(crowd, TARGETS, 5);
    expect(s.cells).toHaveLength(2);
    const [low, high] = s.cells;
    expect(low).toMatchObject({ count: 3, crop: MIXED, size: null, below: 3, over: 3 });
    // Bell pepper at 86 meets its 55 %; Tomato misses 90 %. CV 21: within both thresholds.
    expect(high).toMatchObject({ count: 10, crop: 'Bell pepper', below: 4, over: 0, size: 104.5 });
    // The legend names the colours drawn: only Bell pepper colours a cell.
    expect([...s.coloured]).toEqual(['Bell pepper']);
    expect([...s.crops].sort()).toEqual(['A', 'B', 'Bell pepper', 'C', 'Tomato']);
  });

  it('a value on a cell edge lands where the drill-down of that cell finds it, 100 % in the top cell', () => {
    const edges = [
      at(100, 0.6),
      at(97.5, 0.6),
      at(0, 0),
      ...Array.from({ length: 40 }, (_, i) => at(100 - (i % 4) * 1.25, 0.2 * (i % 10))),
    ];
    checkCells(edges, scatterOf(edges, TARGETS, 0));
  });

  it('100,000 batches: equal cells, a few thousand at most, every batch counted once', () => {
    const s = scatterOf(all, TARGETS);
    expect(s.drawn).toBeGreaterThan(POINT_LIMIT);
    expect(s.kind).toBe('cells');
    expect(s.cells.length).toBeLessThanOrEqual(40 * Math.round(s.cvMax / s.cvWidth));
    expect(s.cells.reduce((n, c) => n + c.count, 0) + s.undrawn).toBe(all.length);
    expect(s.cells.filter((c) => c.crop !== MIXED).length).toBeGreaterThan(0);
  });

  it('for any batches: points when few, cells otherwise, each batch drawn once', () => {
    const batch = fc.record({
      g: fc.option(fc.integer({ min: 3000, max: 10_000 }), { nil: null, freq: 20 }),
      cv: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: null, freq: 20 }),
      crop: fc.constantFrom('Lettuce', 'Tomato', 'Bell pepper', null),
    });
    fc.assert(
      fc.property(fc.array(batch, { maxLength: 1500 }), fc.integer({ min: 0, max: 2000 }), (list, limit) => {
        const rows = list.map((b) => at(b.g === null ? null : b.g / 100, b.cv === null ? null : b.cv / 100, b.crop));
        const s = scatterOf(rows, TARGETS, limit);
        expect(s.kind).toBe(s.drawn <= limit ? 'points' : 'cells');
        if (s.kind === 'points') expect(new Set(s.points.map((p) => p.row)).size).toBe(s.drawn);
        else checkCells(rows, s);
      }),
      { numRuns: 30 },
    );
  });
});
