import { dateRange, type DateRange } from '../contract';
import { daysInMonth } from '../utc-date';
import { addDays, daysToMs, formatDay, parseDay, type Zone } from './date-range';
import { formatsFor } from '../i18n/formats';
import { describeDays, type DaysDrill } from './drill';
import type { Speech } from './speech';
import type { RowFilter } from './rows';
import { offsetAt } from './zones';
import type { Comparison } from './url-state';

const DAY_MS = 86_400_000;

/** Instants [from, to). */
export type Window = { from: number; to: number };

export type ComparisonWindow = {
  /** What the range really covers: its whole days, or up to `now` when its last day has not ended. */
  current: Window;
  comparison: Window;
  /** The comparison's calendar days in the zone (the last one only up to the time of day of `now` when `partial`). */
  days: DaysDrill;
  /** Added to a comparison batch's time, aligns it with the current window (start on start). */
  shiftMs: number;
  /** The current window ends now, not at a midnight: the comparison ends at the same time of day. */
  partial: boolean;
  /** What the stream loads for the comparison (ends inclusive, as rangeToQuery writes them). */
  range: DateRange;
};

/** The same calendar day a year earlier; 29 February becomes 28 February. */
export function yearBefore(day: string): string {
  const { y, m, d } = parseDay(day)!;
  const dd = Math.min(d, daysInMonth(y - 1, m));
  return `${String(y - 1).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
}

/** Days from `from` to `to`, both counted. */
const dayCount = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The instant a wall-clock time (ms since the day's midnight) of a day has in the zone; never before the day starts. */
function instantAt(day: string, timeOfDay: number, zone: Zone): number {
  const start = daysToMs(day, day, zone).from;
  const wall = Date.parse(`${day}T00:00:00Z`) + timeOfDay;
  const guess = wall - offsetAt(wall, zone);
  return Math.max(start, wall - offsetAt(guess, zone));
}

/** An instant as the end of a stream range: inclusive, with microseconds, as rangeToQuery writes a day's end. */
const inclusiveEnd = (exclusive: number) => new Date(exclusive - 1).toISOString().replace(/Z$/, '999Z');

/**
 * The period the range `from`..`to` (days in the zone) is compared with; null for a range with no `from`
 * (All time has nothing before it). No `to` means up to today.
 *
 * - previous: as many days as the range has, right before `from`;
 * - last-year: the same calendar days a year earlier (29 February as 28 February; a range over 29 February is
 *   then a day longer than its comparison, the price of comparing like dates).
 *
 * A range whose last day is today or later really ends now: it is compared with the same span, ending at the
 * same time of day on the matching day (Monday 00:00 to Wednesday 14:05 against Monday 00:00 to Wednesday 14:05
 * of the week before), never with a whole period.
 */
export function comparisonWindow(
  kind: Comparison,
  from: string | undefined,
  to: string | undefined,
  zone: Zone,
  now: number,
): ComparisonWindow | null {
  if (!from) return null;
  const today = formatDay(now, zone);
  const last = to ?? today;
  const partial = from <= today && last >= today;
  const shift = kind === 'previous' ? (day: string) => addDays(day, -dayCount(from, last)) : yearBefore;
  const days = { from: shift(from), to: shift(partial ? today : last) };
  const current = { from: daysToMs(from, from, zone).from, to: partial ? now : daysToMs(last, last, zone).to };
  const timeOfDay = (((now + offsetAt(now, zone)) % DAY_MS) + DAY_MS) % DAY_MS;
  const comparison = {
    from: daysToMs(days.from, days.from, zone).from,
    to: partial ? instantAt(days.to, timeOfDay, zone) : daysToMs(days.to, days.to, zone).to,
  };
  return {
    current,
    comparison,
    days,
    shiftMs: current.from - comparison.from,
    partial,
    range: dateRange(new Date(comparison.from).toISOString(), inclusiveEnd(comparison.to)),
  };
}

/** `17–23 Mar 2025`, or `17–19 Mar 2025, up to 14:05` for a window that ends during its last day. */
export function describeWindow(w: ComparisonWindow, zone: Zone, { f, t }: Speech): string {
  const days = describeDays(w.days, f);
  return w.partial ? t('upTo', { days, time: f.time(w.comparison.to, zone) }) : days;
}

const MINUS = '\u2212';
/** Until the summary cards pass the reader's: the English of before (`+1.2 pp`). */
const ENGLISH = formatsFor('en-GB');
/** Rounded as it is written (to `digits` decimals), so that what reads as 0 is ±0. */
const roundsToZero = (v: number, digits: number) => Math.round(Math.abs(v) * 10 ** digits) === 0;
/** `+1.2`, `−0.8`, `±0.0`: a change with `digits` decimals (at most, or exactly when `exact`). */
function signed(change: number, digits: number, exact: boolean, f: Speech['f']): string {
  const text = exact ? f.decimal(Math.abs(change), digits) : f.number(Math.abs(change), digits);
  if (roundsToZero(change, digits)) return `±${text}`;
  return `${change > 0 ? '+' : MINUS}${text}`;
}

/**
 * The change of a rate in percentage points: `+1.2 pp`, `−0.8 pp`, `±0.0 pp` (`+1,2 Pp.` in German); null when
 * either is unknown. Without the reader's `say`, in English.
 */
export function ppChange(current: number | null, before: number | null, say?: Speech): string | null {
  if (current === null || before === null) return null;
  const change = signed(current - before, 1, true, say?.f ?? ENGLISH);
  return say ? say.t('pp', { change }) : `${change} pp`;
}

/**
 * The change of a count in percent of the earlier count, written as the reader's locale writes a percent: `+12%`,
 * `−3.4%`, `±0%` (`+12 %` in German); null when it had none.
 */
export function countChange(current: number, before: number, say?: Speech): string | null {
  if (before === 0 && current !== 0) return null;
  const change = before === 0 ? 0 : ((current - before) / before) * 100;
  const text = (say?.f ?? ENGLISH).percentUpTo(Math.abs(change), 1);
  if (roundsToZero(change, 1)) return `±${text}`;
  return `${change > 0 ? '+' : MINUS}${text}`;
}

/**
 * The filter of the current window as it applies to the comparison: the same Search, crop, warnings, below
 * target, bins and scanner; a days drill-down (instants of the current window) becomes the matching span of the
 * comparison window, moved back by `shiftMs` (as is, it would hold none of the comparison's batches).
 */
export function comparisonFilter(filter: RowFilter, shiftMs: number): RowFilter {
  const within = filter.drill?.within;
  if (!filter.drill || !within) return filter;
  return { ...filter, drill: { ...filter.drill, within: { from: within.from - shiftMs, to: within.to - shiftMs } } };
}
