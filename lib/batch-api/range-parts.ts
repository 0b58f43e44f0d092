import { lowerBoundMs, parseUtcDate, upperBoundMs } from '../utc-date';
import type { BatchQuery } from './schemas';

/**
 * A slice of a date range, fetched with its own cursor. The service's filters are inclusive at both ends, so
 * neighbouring parts share their boundary instant: a batch created exactly there comes back twice and the
 * loader keeps it once (by `batch_id`). A missing end stays open, exactly as the person asked.
 */
export type RangePart = BatchQuery;

const iso = (ms: number) => new Date(ms).toISOString();

function boundMs(value: string | undefined, side: 'start' | 'end'): number | undefined {
  if (value === undefined) return undefined;
  const parsed = parseUtcDate(value);
  if (!parsed.ok) return undefined;
  return side === 'start' ? lowerBoundMs(parsed.instant) : upperBoundMs(parsed.instant);
}

/**
 * Cuts `part` into at most `count` parts of equal time span. `knownLo`/`knownHi` stand in for an open end
 * when planning (e.g. the earliest batch seen so far, or now); the outer parts still keep the open end, so
 * nothing before or after the planning bounds is lost.
 */
export function splitPart(part: RangePart, count: number, known: { lo?: number; hi?: number } = {}): RangePart[] {
  const lo = boundMs(part.start_date, 'start') ?? known.lo;
  const hi = boundMs(part.end_date, 'end') ?? known.hi;
  if (lo === undefined || hi === undefined || hi - lo < 2 || count < 2) return [part];
  const n = Math.min(count, hi - lo);
  const cuts: number[] = [];
  for (let i = 1; i < n; i++) {
    const cut = Math.round(lo + ((hi - lo) * i) / n);
    if (cut > lo && cut < hi && cut !== cuts.at(-1)) cuts.push(cut);
  }
  if (cuts.length === 0) return [part];
  const parts: RangePart[] = [];
  let start = part.start_date;
  for (const cut of cuts) {
    parts.push(withBounds(start, iso(cut)));
    start = iso(cut);
  }
  parts.push(withBounds(start, part.end_date));
  return parts;
}

function withBounds(start_date: string | undefined, end_date: string | undefined): RangePart {
  const part: RangePart = {};
  if (start_date !== undefined) part.start_date = start_date;
  if (end_date !== undefined) part.end_date = end_date;
  return part;
}

/** Earliest and latest creation instants among some batches (planning bounds for open ends). */
export function spanOf(batches: readonly { batch_creation_date: string }[]): { lo?: number; hi?: number } {
  let lo: number | undefined;
  let hi: number | undefined;
  for (const b of batches) {
    const ms = Date.parse(b.batch_creation_date);
    if (Number.isNaN(ms)) continue;
    if (lo === undefined || ms < lo) lo = ms;
    if (hi === undefined || ms > hi) hi = ms;
  }
  return { lo, hi };
}
