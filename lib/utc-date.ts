/**
 * The service's date rules (spec 4.4), in one place for the sandbox, the upstream client and the BFF.
 *
 * Accepted: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `+00:00`.
 * Refused: no timezone, any other offset (even `-00:00`, which RFC 3339 reserves for "unknown"),
 * malformed text and impossible calendar values (Feb 30, hour 24, second 60).
 */

const UTC_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

export type UtcInstant = {
  /** Whole milliseconds since the epoch (the fraction past the millisecond is truncated). */
  ms: number;
  /** True when the value carries a non-zero fraction below the millisecond. */
  subMs: boolean;
};

export type UtcDateResult = { ok: true; instant: UtcInstant } | { ok: false; reason: string };

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
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
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(frac.slice(0, 3).padEnd(3, '0')));
  return { ok: true, instant: { ms: date.getTime(), subMs: /[1-9]/.test(frac.slice(3)) } };
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
