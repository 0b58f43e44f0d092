/**
 * Results computed from a set of rows, kept for as long as that set is (a WeakMap on the array): switching the
 * Metric back, removing a drill-down chip or undoing with Back finds the aggregation already made, and the
 * metrics not shown can be computed ahead while the page is idle. A set of rows never changes once made (the
 * explorer makes a new array for new rows), so its identity is a safe key.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

/** At most this many results per set of rows (a few aggregations × four metrics × zones and targets seen). */
const PER_SET = 48;

export function cachedFor<T>(rows: object, key: string, compute: () => T): T {
  let results = cache.get(rows);
  if (!results) cache.set(rows, (results = new Map()));
  if (results.has(key)) return results.get(key) as T;
  const value = compute();
  if (results.size >= PER_SET) results.delete(results.keys().next().value!);
  results.set(key, value);
  return value;
}

export function isCached(rows: object, key: string): boolean {
  return cache.get(rows)?.has(key) ?? false;
}

const targetKeys = new WeakMap<object, string>();
/** A key for a targets object (by content, worked out once per object). */
export function keyOf(targets: object): string {
  let k = targetKeys.get(targets);
  if (k === undefined) targetKeys.set(targets, (k = JSON.stringify(targets)));
  return k;
}
