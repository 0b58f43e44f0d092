/**
 * The service's date rules (docs/batch-data-service.md#dates), in one place for the sandbox, the upstream client and the BFF.
 *
 * Accepted: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `+00:00`.
 * Refused: no timezone, any other offset (even `-00:00`, which RFC 3339 reserves for "unknown"),
 * malformed text and impossible calendar values (Feb 30, hour 24, second 60).
 */

const UTC_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

export type UtcInstant = {
  /** Whole milliseconds since the epoch (the fraction past the millisecond is truncated). */
  ms: number;
  /** True when the value carries a non-zero fraction below the millisecond. */
  subMs: boolean;
};

export type UtcDateResult = { ok: true; instant: UtcInstant } | { ok: false; reason: string };

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). Arithmetic instead of
 * a Date object: every batch of every upstream page goes through here, and Date.UTC maps years 0-99 to 1900+.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Wall-clock fields read as UTC, in ms; fields past their range carry over (day 32 is the next month's 1st). */
export function civilToMs(y: number, m: number, d: number, h = 0, min = 0, s = 0): number {
  return daysFromCivil(y, m, d) * 86_400_000 + ((h * 60 + min) * 60 + s) * 1000;
}

export function parseUtcDate(value: string): UtcDateResult {
  const m = UTC_DATETIME.exec(value);
  if (!m) {
    return { ok: false, reason: 'must be an ISO 8601 UTC datetime such as 2025-01-31T00:00:00Z' };
  }
  const [, y, mo, d, h, mi, s = '00', frac = '', zone] = m as unknown as string[];
  if (!zone) {
    return { ok: false, reason: 'has no timezone: it must end with Z or +00:00' };
  }
  if (zone !== 'Z' && zone !== '+00:00') {
    return { ok: false, reason: `is not UTC (offset ${zone}): it must end with Z or +00:00` };
  }
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, reason: `is not a real calendar date (${y}-${mo}-${d})` };
  }
  if (hour > 23 || minute > 59 || second > 59) {
    return { ok: false, reason: `is not a real time of day (${h}:${mi}:${s})` };
  }
  const ms = frac === '' ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  const time = civilToMs(year, month, day, hour, minute, second) + ms;
  return { ok: true, instant: { ms: time, subMs: frac.length > 3 && /[1-9]/.test(frac.slice(3)) } };
}

/** Lowest whole millisecond that is on or after the instant (for inclusive `start_date`). */
export function lowerBoundMs(instant: UtcInstant): number {
  return instant.subMs ? instant.ms + 1 : instant.ms;
}

/** Highest whole millisecond that is on or before the instant (for inclusive `end_date`). */
export function upperBoundMs(instant: UtcInstant): number {
  return instant.ms;
}

/** The documented form: `2025-01-31T08:00:00Z` (no milliseconds when there are none). */
export function formatUtcDate(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}
