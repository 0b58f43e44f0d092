/*
 * How often an individuals chart raises a false alarm: batches of a process that has not changed (independent,
 * normal, in units of its σ), judged against limits estimated as the chart does (centre = mean of the baseline,
 * σ̂ = MR̄ / 1.128, limits at ±3σ̂).
 *
 * Method, for limits from a baseline of m batches:
 *   1. Given the limits, a batch X ~ N(0, 1) is beyond them with q = Φ(LCL) + 1 − Φ(UCL), above the centre with
 *      p = 1 − Φ(centre). A batch in the middle of a long series lies in a run of 8 or more on its side when the
 *      A batches before it and the B after it on the same side (each geometric: P(A ≥ a) = pᵃ) number 7 or
 *      more: r = 1 − Σₖ₌₀⁶ (k + 1) pᵏ (1 − p)². Whether it is beyond its limit depends on its own value only,
 *      so, given its side s, it is marked with q_s + (1 − q_s) r_s. Per 100 batches: 100 × that, summed over sides.
 *   2. The chance of at least one alarm among 100 batches follows the run on each side through 100 batches
 *      (a Markov chain over the side and length of the run so far; an alarm is a batch beyond a limit or a run
 *      reaching 8).
 *   3. Both are averaged over RUNS baselines of m batches drawn from N(0, 1) with a seeded generator: the
 *      estimated limits scatter around the true ones, so a short baseline raises false alarms on average.
 *   With the true limits (m → ∞), step 1 gives 0.27 per 100 (2 × (1 − Φ(3))) beyond the limits and
 *   100 × (9/256 + 0.0027 − 0.0027 × 9/256) = 3.78 with runs of 8; those are computed exactly below.
 * The table was made once by scripts/spc-false-alarms.ts (RUNS baselines per size); a unit test re-simulates
 * some rows and holds them to it.
 */

import { RUN, type Rules } from './rules';

/** Standard normal CDF: erfc by its Chebyshev fit (Numerical Recipes, relative error under 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** P(a batch on a side of probability p lies in a run of RUN or more), for a batch within a long series. */
function inRun(p: number): number {
  let below = 0;
  for (let k = 0; k < RUN - 1; k++) below += (k + 1) * p ** k * (1 - p) ** 2;
  return Math.max(0, 1 - below);
}

export type FalseAlarms = {
  /** Batches marked out of control per 100 batches of a process that has not changed. */
  perHundred: number;
  /** The chance (0–1) that 100 such batches hold at least one alarm. */
  inHundred: number;
};

/** Step 1 and 2 above for limits at `centre` ± 3 × `sigma` (in units of the process's σ around its mean 0). */
export function falseAlarmsGiven(centre: number, sigma: number, rules: Rules): FalseAlarms {
  const upBeyond = 1 - normalCdf(centre + 3 * sigma),
    downBeyond = normalCdf(centre - 3 * sigma);
  if (rules === 'limits') {
    const q = upBeyond + downBeyond;
    return { perHundred: 100 * q, inHundred: 1 - (1 - q) ** 100 };
  }
  const up = 1 - normalCdf(centre),
    down = 1 - up;
  const marked = (side: number, beyond: number) =>
    side > 0 ? side * (beyond / side + (1 - beyond / side) * inRun(side)) : 0;
  // The chain: probability of no alarm yet with the current run above (index 0..6 = length 1..7) or below.
  let above = new Float64Array(RUN - 1),
    under = new Float64Array(RUN - 1);
  let fresh = 1;
  const stayUp = up - upBeyond,
    stayDown = down - downBeyond;
  for (let step = 0; step < 100; step++) {
    const a = new Float64Array(RUN - 1),
      b = new Float64Array(RUN - 1);
    let sumUp = fresh,
      sumDown = fresh;
    for (let k = 0; k < RUN - 1; k++) {
      sumUp += under[k]!;
      sumDown += above[k]!;
    }
    // A batch on the other side (or the first) starts a run of 1; on the same side it extends the run.
    a[0] = sumUp * stayUp;
    b[0] = sumDown * stayDown;
    for (let k = 1; k < RUN - 1; k++) {
      a[k] = above[k - 1]! * stayUp;
      b[k] = under[k - 1]! * stayDown;
    }
    above = a;
    under = b;
    fresh = 0;
  }
  let none = 0;
  for (let k = 0; k < RUN - 1; k++) none += above[k]! + under[k]!;
  return { perHundred: 100 * (marked(up, upBeyond) + marked(down, downBeyond)), inHundred: 1 - none };
}

/** A seeded generator of N(0, 1) draws (mulberry32 and the polar method): the same seed, the same table. */
export function normals(seed: number): () => number {
  let s = seed >>> 0,
    spare: number | null = null;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    let u: number, v: number, q: number;
    do {
      u = 2 * uniform() - 1;
      v = 2 * uniform() - 1;
      q = u * u + v * v;
    } while (q >= 1 || q === 0);
    const f = Math.sqrt((-2 * Math.log(q)) / q);
    spare = v * f;
    return u * f;
  };
}

/** Step 3: the average over `runs` baselines of `m` batches. */
export function simulateFalseAlarms(m: number, rules: Rules, runs: number, seed = 1): FalseAlarms {
  const draw = normals(seed + m);
  let perHundred = 0,
    inHundred = 0;
  for (let r = 0; r < runs; r++) {
    let sum = 0,
      ranges = 0,
      last = 0;
    for (let i = 0; i < m; i++) {
      const x = draw();
      sum += x;
      if (i > 0) ranges += Math.abs(x - last);
      last = x;
    }
    const got = falseAlarmsGiven(sum / m, ranges / (m - 1) / 1.128, rules);
    perHundred += got.perHundred;
    inHundred += got.inHundred;
  }
  return { perHundred: perHundred / runs, inHundred: inHundred / runs };
}

/** Baselines simulated per size in the table below. */
export const RUNS = 40_000;

/** [m, per 100 (limits), chance in 100 (limits), per 100 (runs), chance in 100 (runs)], from scripts/spc-false-alarms.ts. */
export const TABLE: readonly (readonly [number, number, number, number, number])[] = [
  [10, 2.36, 0.465, 10.691, 0.735],
  [12, 1.9, 0.444, 9.48, 0.714],
  [15, 1.486, 0.429, 8.267, 0.692],
  [20, 1.083, 0.402, 7.059, 0.662],
  [25, 0.877, 0.381, 6.33, 0.638],
  [30, 0.76, 0.366, 5.908, 0.621],
  [40, 0.62, 0.344, 5.35, 0.597],
  [50, 0.535, 0.33, 5.013, 0.579],
  [60, 0.486, 0.318, 4.808, 0.567],
  [75, 0.435, 0.304, 4.596, 0.552],
  [100, 0.392, 0.29, 4.379, 0.536],
  [150, 0.346, 0.273, 4.174, 0.517],
  [200, 0.327, 0.265, 4.075, 0.508],
  [300, 0.308, 0.256, 3.974, 0.499],
  [500, 0.292, 0.248, 3.895, 0.49],
  [1000, 0.28, 0.243, 3.835, 0.484],
  [2000, 0.275, 0.24, 3.805, 0.48],
];

/** False alarms of `rules` with limits from `m` baseline batches: the table, read linearly in 1/m (exact beyond it). */
export function falseAlarms(rules: Rules, m: number): FalseAlarms {
  const exact = falseAlarmsGiven(0, 1, rules);
  const col = rules === 'limits' ? 1 : 3;
  const rows: (readonly [number, number, number])[] = [
    ...TABLE.map((r) => [1 / r[0], r[col]!, r[col + 1]!] as const),
    [0, exact.perHundred, exact.inHundred] as const,
  ];
  const x = 1 / Math.max(m, 1);
  if (x >= rows[0]![0]) return { perHundred: rows[0]![1], inHundred: rows[0]![2] };
  for (let i = 1; i < rows.length; i++) {
    const [x0, p0, c0] = rows[i - 1]!,
      [x1, p1, c1] = rows[i]!;
    if (x >= x1) {
      const w = (x - x1) / (x0 - x1);
      return { perHundred: p1 + w * (p0 - p1), inHundred: c1 + w * (c0 - c1) };
    }
  }
  return exact;
}
