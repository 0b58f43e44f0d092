/** Rounds as the page's formatters do (Intl: the figure as written, `29.95`, rounded half away from zero: `30.0`). */
const rounders = new Map<number, Intl.NumberFormat>();
function roundedAsShown(value: number, digits: number): number {
  let r = rounders.get(digits);
  if (!r)
    rounders.set(
      digits,
      (r = new Intl.NumberFormat('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
        useGrouping: false,
      })),
    );
  return Number(r.format(value));
}

/**
 * How many decimals a figure needs beside a verdict on it, so that the rounded figure never contradicts the
 * verdict: 92.48 against a target of 92.5 is below it, but written with one decimal it reads 92.5; with two,
 * 92.48. `better` says which side of the target is good ('higher' for a rate's floor, 'lower' for the CV
 * threshold, a ceiling); `digits` is how many decimals the figure is written with otherwise. At most six.
 */
export function digitsBesideTarget(
  value: number,
  target: number | null,
  better: 'higher' | 'lower',
  digits = 1,
): number {
  if (target === null || !Number.isFinite(value)) return digits;
  const misses = (v: number) => (better === 'higher' ? v < target : v > target);
  const missed = misses(value);
  let d = digits;
  while (d < 6 && misses(roundedAsShown(value, d)) !== missed) d++;
  return d;
}
