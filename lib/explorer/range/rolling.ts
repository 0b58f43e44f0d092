/**
 * The date range as links and saved views write it, in the notation Grafana users know: each end a calendar
 * day (`2026-05-01`) or relative to today in the URL's zone, resolved to calendar days when the page is shown.
 *
 * - `from`: a day, `now-<n>d` (the last n calendar days, today included: today and the n − 1 days before it),
 *   `now/y` (this calendar year to date) or `all` (no start: every batch since the first);
 * - `to`: a day or `now` (today, whole).
 *
 * `from=all&to=now` is All time: no end either, every batch there is.
 */
import { addDays, formatDay, parseDay, type Preset, type Zone } from '../date-range';

/** The longest `now-<n>d` read: about 270 years, far past any tray scan. */
const MAX_DAYS = 99_999;
const LAST_DAYS = /^now-([1-9]\d{0,4})d$/;

export const ALL = 'all';
export const NOW = 'now';
export const THIS_YEAR = 'now/y';

/** Today's calendar day in the zone: what `now` stands for. */
export const todayIn = (zone: Zone, now = Date.now()): string => formatDay(now, zone);

/** What each preset writes into the URL. */
export const PRESET_ENDS: Readonly<Record<Preset, { from: string; to: string }>> = {
  '7d': { from: 'now-7d', to: NOW },
  '30d': { from: 'now-30d', to: NOW },
  '90d': { from: 'now-90d', to: NOW },
  ytd: { from: THIS_YEAR, to: NOW },
  all: { from: ALL, to: NOW },
};

/** The n of `now-<n>d`, or null for any other text. */
export function lastDaysOf(from: string): number | null {
  const match = LAST_DAYS.exec(from);
  const n = match ? Number(match[1]) : 0;
  return n >= 1 && n <= MAX_DAYS ? n : null;
}

/** A `from` as the URL may write it (see above). */
export const isRangeStart = (raw: string): boolean =>
  raw === ALL || raw === THIS_YEAR || lastDaysOf(raw) !== null || parseDay(raw) !== null;
/** A `to` as the URL may write it: a day or `now`. */
export const isRangeEnd = (raw: string): boolean => raw === NOW || parseDay(raw) !== null;

/** The range follows the calendar: one of its ends moves with today. */
export const isRolling = (from: string, to: string): boolean =>
  to === NOW || from === THIS_YEAR || lastDaysOf(from) !== null;

/** The preset whose ends these are, or null (a range of days, or a rolling one of no preset). */
export function presetOf(from: string, to: string): Preset | null {
  for (const [id, ends] of Object.entries(PRESET_ENDS)) if (ends.from === from && ends.to === to) return id as Preset;
  return null;
}

/**
 * The calendar days the ends stand for on `today` (a day in the URL's zone): an open end is undefined. All time
 * has neither (so it stays one range whatever the day); every other `to=now` is today, so that a rolling range
 * and the same days written out are one range to the caches.
 */
export type RangeDays = { from?: string; to?: string };

export function resolveRange(from: string, to: string, today: string): RangeDays {
  const days: RangeDays = {};
  const n = lastDaysOf(from);
  if (n !== null) days.from = addDays(today, 1 - n);
  else if (from === THIS_YEAR) days.from = `${today.slice(0, 4)}-01-01`;
  else if (from !== ALL) days.from = from;
  if (to !== NOW) days.to = to;
  else if (from !== ALL) days.to = today;
  return days;
}

/** From after To, once both ends are days: the range holds no day. */
export function reversed(days: RangeDays): boolean {
  return days.from !== undefined && days.to !== undefined && days.from > days.to;
}

/** Days from `from` to `to`, both counted. */
export function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * The range once one end is set to `day`: when the new end passes the other one, the other follows, keeping the
 * range as many days long as it was (one day when it had no start), so that moving a range later or earlier
 * is one change. `moved` names the end that followed, and where to.
 */
export function withEnd(
  ends: { from: string; to: string },
  end: 'from' | 'to',
  day: string,
  today: string,
): { from: string; to: string; moved: { end: 'from' | 'to'; day: string } | null } {
  const days = resolveRange(ends.from, ends.to, today);
  const length = days.from !== undefined ? dayCount(days.from, days.to ?? today) : 1;
  if (end === 'from') {
    const last = days.to ?? today;
    if (day <= last) return { ...ends, from: day, moved: null };
    const to = addDays(day, Math.max(length, 1) - 1);
    return { from: day, to, moved: { end: 'to', day: to } };
  }
  if (days.from === undefined || day >= days.from) return { ...ends, to: day, moved: null };
  const from = addDays(day, 1 - Math.max(length, 1));
  return { from, to: day, moved: { end: 'from', day: from } };
}
