import { describe, expect, it } from 'vitest';
import type { Batch } from '@/lib/contract';
import { NO_CROP, toRow, type Row } from '@/lib/explorer/rows';
import {
  falseAlarms,
  falseAlarmsGiven,
  normals,
  simulateFalseAlarms,
  TABLE,
} from '@/lib/explorer/control/false-alarms';
import type { Rules } from '@/lib/explorer/control/rules';
import { controlChart, controlCharts, drawnLine, judge, limitsOf } from '@/lib/explorer/spc';
import { formatUtcDate } from '@/lib/utc-date';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

/** A batch created `i` hours after T0 with this germination rate (and CV, size) and crop. */
function row(i: number, value: number, opts: { warnings?: boolean; crop?: string | null } = {}): Row {
  const v = value.toFixed(2);
  const batch: Batch = {
    batch_id: `b-${String(i).padStart(4, '0')}`,
    batch_name: `Batch ${i}`,
    batch_creation_date: formatUtcDate(T0 + i * HOUR),
    crop_type: opts.crop === undefined ? 'Tomato' : opts.crop,
    number_of_images: 1,
    total_cells_per_tray: 100,
    avg_germinated_seedlings: v,
    avg_non_germinated_seedlings: null,
    avg_germination_rate: v,
    avg_usable_seedlings: null,
    avg_non_usable_cells: null,
    avg_usable_seedling_rate: null,
    avg_coefficient_of_variation: v,
    avg_median_seedling_size_mm2: v,
    scanned_by_email: null,
    analysis_link: null,
    comment: null,
    warnings: opts.warnings ?? false,
  };
  return toRow(batch);
}

const rowsOf = (values: readonly number[], warned: readonly number[] = []) =>
  values.map((v, i) => row(i, v, { warnings: warned.includes(i) }));

// 50 clean batches alternating 10, 12 (a warned 50 sits among them): centre 11, every moving range 2, MR̄ 2,
// σ̂ = 2 / 1.128 = 1.77305, limits 11 ± 5.31915. Then: 17 and 5 (beyond), 11 (on the centre, ends any run),
// eight at 11.5 (a run above the centre) and 16.5 (beyond, and the run's 9th).
const baselineValues = [10, 12, 10, 12, 10, 50, ...Array.from({ length: 45 }, (_, k) => (k % 2 ? 10 : 12))];
const after = [17, 5, 11, ...Array(8).fill(11.5), 16.5];
const all = rowsOf([...baselineValues, ...after], [5]);
const chart = controlChart('Tomato', all, 'germination', null, 'runs');

describe('individuals (I-MR) control chart', () => {
  it('takes its limits from the first 50 batches without warnings, and says how many were left out', () => {
    expect(chart.baseline).toEqual({ used: 50, warned: 1, clean: 62, first: 0, last: 50 });
    expect(chart.limits!.centre).toBe(11);
    expect(chart.limits!.mrBar).toBe(2);
    expect(chart.limits!.sigma).toBeCloseTo(1.77305, 6);
    expect(chart.limits!.ucl).toBeCloseTo(16.319149, 6);
    expect(chart.limits!.lcl).toBeCloseTo(5.680851, 6);
  });

  it('with runs: marks batches beyond the limits (the warned one too) and every batch of a run of 8', () => {
    const beyond = chart.points.flatMap((p, i) => (p.beyond ? [i] : []));
    const run = chart.points.flatMap((p, i) => (p.run ? [i] : []));
    expect(beyond).toEqual([5, 51, 52, 62]);
    expect(run).toEqual([54, 55, 56, 57, 58, 59, 60, 61, 62]);
    expect({ beyond: chart.beyond, run: chart.run, outOfControl: chart.outOfControl }).toEqual({
      beyond: 4,
      run: 9,
      outOfControl: 12,
    });
  });

  it('by default judges by the limits alone: a run is no alarm', () => {
    const limitsOnly = controlChart('Tomato', all, 'germination', null);
    expect(limitsOnly.rules).toBe('limits');
    expect(limitsOnly.points.some((p) => p.run)).toBe(false);
    expect({ beyond: limitsOnly.beyond, run: limitsOnly.run, outOfControl: limitsOnly.outOfControl }).toEqual({
      beyond: 4,
      run: 0,
      outOfControl: 4,
    });
  });

  it('seven in a row on one side is not a run; a batch on the centre line breaks one', () => {
    // The baseline ends above the centre (12): a batch below first, so that the seven stand alone.
    const seven = controlChart(
      'Tomato',
      rowsOf([...baselineValues, 10, ...Array(7).fill(11.5), 11, ...Array(7).fill(10.5)], [5]),
      'germination',
      null,
      'runs',
    );
    expect(seven.run).toBe(0);
    expect(seven.outOfControl).toBe(1);
  });

  it('a baseline period: only its batches make the limits, and all are judged', () => {
    // Batches 0–9 hover around 50, batches 10–29 alternate 10/12: a period over the latter finds the former far above.
    const values = [
      ...Array.from({ length: 10 }, (_, k) => 50 + (k % 2)),
      ...Array.from({ length: 20 }, (_, k) => (k % 2 ? 12 : 10)),
    ];
    const c = controlChart(
      'Tomato',
      rowsOf(values),
      'germination',
      { from: T0 + 10 * HOUR, to: T0 + 30 * HOUR },
      'runs',
    );
    expect(c.baseline).toEqual({ used: 20, warned: 0, clean: 30, first: 10, last: 29 });
    expect(c.limits!.centre).toBe(11);
    expect(c.beyond).toBe(10);
    expect(c.run).toBe(10);
    expect(c.outOfControl).toBe(10);
  });

  it('uses all of fewer than 50 clean batches from 10 on, and draws no limits below 10', () => {
    const twelve = controlChart(
      'Tomato',
      rowsOf(Array.from({ length: 12 }, (_, k) => (k % 2 ? 12 : 10))),
      'germination',
      null,
    );
    expect(twelve.baseline).toEqual({ used: 12, warned: 0, clean: 12, first: 0, last: 11 });
    expect(twelve.limits!.centre).toBe(11);
    const nine = controlChart('Tomato', rowsOf([...Array(9).fill(90), 40], [9]), 'germination', null);
    expect(nine.baseline.used).toBe(9);
    expect(nine.limits).toBeNull();
    expect(nine.outOfControl).toBe(0);
  });

  it('keeps limits past the scale as they are (the chart draws them at its edge)', () => {
    const rate = limitsOf([95, 99, 95, 99]);
    expect(rate.centre).toBe(97);
    expect(rate.ucl).toBeCloseTo(97 + (3 * 4) / 1.128, 9);
    expect(rate.ucl).toBeGreaterThan(100);
    const size = limitsOf([1, 5, 1, 5]);
    expect(size.lcl).toBeCloseTo(3 - (3 * 4) / 1.128, 9);
    expect(size.lcl).toBeLessThan(0);
  });

  it("leaves out batches without a value but counts them in the crop's total, and charts every crop, the largest first", () => {
    const rows = [...rowsOf(baselineValues, [5]), row(100, 90, { crop: 'Basil' }), row(101, 91, { crop: null })];
    const missing = toRow({ ...rows[3]!.batch, avg_germination_rate: null });
    const charts = controlCharts([...rows.slice(0, 3), missing, ...rows.slice(4)], 'germination', null);
    expect(charts.map((c) => [c.crop, c.points.length, c.total])).toEqual([
      ['Tomato', 50, 51],
      ['Basil', 1, 1],
      [NO_CROP, 1, 1],
    ]);
    expect(charts[0]!.baseline.used).toBe(49);
  });
});

describe('false alarms', () => {
  /** A series of a steady process (N(0, 1)), judged by the chart's own rules against the true limits. */
  const judged = (n: number, rules: Rules, draw: () => number) => {
    const points = Array.from({ length: n }, (_, i) => ({ row: all[0]!, value: draw(), beyond: false, run: false, i }));
    return judge(points, { centre: 0, ucl: 3, lcl: -3 }, rules);
  };

  it('with the true limits: 0.27 per 100 beyond the limits, 3.78 with runs of 8, exactly', () => {
    const limits = falseAlarmsGiven(0, 1, 'limits'),
      runs = falseAlarmsGiven(0, 1, 'runs');
    expect(limits.perHundred).toBeCloseTo(100 * 2 * 0.0013499, 4);
    expect(limits.inHundred).toBeCloseTo(1 - (1 - 0.0026998) ** 100, 4);
    // A batch is in a run of 8 or more with 9/256; beyond the limits independently of its neighbours.
    expect(runs.perHundred).toBeCloseTo(100 * (9 / 256 + 0.0026998 - 0.0026998 * (9 / 256)), 3);
  });

  it("the figures hold for the chart's own judging of simulated steady batches", () => {
    const draw = normals(7);
    for (const rules of ['limits', 'runs'] as const) {
      const { perHundred, inHundred } = falseAlarmsGiven(0, 1, rules);
      const long = judged(400_000, rules, draw);
      expect(long.outOfControl / 4_000).toBeCloseTo(perHundred, 0);
      expect(Math.abs(long.outOfControl / 4_000 - perHundred) / perHundred).toBeLessThan(0.06);
      let alarmed = 0;
      for (let k = 0; k < 10_000; k++) if (judged(100, rules, draw).outOfControl > 0) alarmed++;
      expect(Math.abs(alarmed / 10_000 - inHundred)).toBeLessThan(0.015);
    }
  });

  it('the table holds what the simulation gives, and a shorter baseline means more false alarms', () => {
    for (const m of [12, 50]) {
      const row = TABLE.find((r) => r[0] === m)!;
      const again = simulateFalseAlarms(m, 'runs', 4_000, 99);
      expect(Math.abs(again.perHundred - row[3]) / row[3]).toBeLessThan(0.05);
      expect(Math.abs(again.inHundred - row[4])).toBeLessThan(0.02);
    }
    const at = (m: number) => falseAlarms('limits', m).perHundred;
    expect(at(20)).toBeCloseTo(1.083, 3);
    expect(at(20)).toBeGreaterThan(at(50));
    expect(at(50)).toBeGreaterThan(at(1_000));
    expect(at(1e9)).toBeCloseTo(falseAlarmsGiven(0, 1, 'limits').perHundred, 3);
    // Between two rows, linearly in 1/m.
    const mid = falseAlarms('runs', 1 / ((1 / 20 + 1 / 25) / 2)).perHundred;
    expect(mid).toBeCloseTo((7.059 + 6.33) / 2, 3);
  });
});

describe('the line drawn', () => {
  it('keeps every batch up to twice the buckets, else the lowest and highest of each bucket in order', () => {
    const few = controlChart('Tomato', rowsOf([1, 2, 3, 4]), 'germination', null).points;
    expect(drawnLine(few, 2).map((p) => p.i)).toEqual([0, 1, 2, 3]);
    const many = controlChart('Tomato', rowsOf([5, 1, 9, 3, 3, 3, 7, 2, 8, 4]), 'germination', null).points;
    // Buckets of 10 / 3 batches: [0, 3) → 1 at 1, 9 at 2; [3, 6) → all 3: one point; [6, 10) → 2 at 7, 8 at 8.
    expect(drawnLine(many, 3)).toEqual([
      { i: 1, value: 1 },
      { i: 2, value: 9 },
      { i: 3, value: 3 },
      { i: 7, value: 2 },
      { i: 8, value: 8 },
    ]);
  });
});
