/**
 * A span of creation instants, each end optional and inclusive, written by the service's date rules: what the
 * service filters on, what our API takes, and what the range loader cuts into parts (DateRangeSchema checks it).
 */
export type DateRange = { start_date?: string; end_date?: string };

/** The range with only the ends that are set (an absent end stays open, and is not written as `undefined`). */
export function dateRange(start_date: string | undefined, end_date: string | undefined): DateRange {
  const range: DateRange = {};
  if (start_date !== undefined) range.start_date = start_date;
  if (end_date !== undefined) range.end_date = end_date;
  return range;
}

/** The range as query parameters: absent ends are left out. */
export function rangeParams(range: DateRange): URLSearchParams {
  const params = new URLSearchParams();
  if (range.start_date) params.set('start_date', range.start_date);
  if (range.end_date) params.set('end_date', range.end_date);
  return params;
}
