/** Calendar days in the URL become UTC instants covering whole days in the URL's zone (DST included). */
import { dateRange, type DateRange } from '../contract';
import { daysInMonth } from '../utc-date';
import { civilToMs, dayIn, startOfDayIn, type CivilDay, type Zone } from './zones';

export type { Zone } from './zones';
export type Preset = '7d' | '30d' | '90d' | 'ytd' | 'all';

/** In the order the buttons show them; their names are in the messages (`explorer.range.preset`), what they write in range/rolling.ts. */
export const PRESETS: readonly Preset[] = ['7d', '30d', '90d', 'ytd', 'all'];

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function parseDay(value: string): CivilDay | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return { y, m, d };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayText = ({ y, m, d }: CivilDay) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** The calendar day `days` after (or before) a day; plain calendar arithmetic, no zone involved. */
export function addDays(day: string, days: number): string {
  const p = parseDay(day)!;
  const date = new Date(civilToMs(p.y, p.m, p.d + days));
  return dayText({ y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() });
}

function startOfDay(day: string, zone: Zone, offsetDays = 0): number {
  const p = parseDay(addDays(day, offsetDays))!;
  return startOfDayIn(p.y, p.m, p.d, zone);
}

/** The instants of the whole days `from` to `to` in the zone: [start of `from`, start of the day after `to`). */
export function daysToMs(from: string, to: string, zone: Zone): { from: number; to: number } {
  return { from: startOfDay(from, zone), to: startOfDay(to, zone, 1) };
}

/**
 * `from` 00:00 and `to` 23:59:59.999999 in the zone, as the service's UTC ISO strings. The end carries
 * microseconds so that a service storing them cannot put a batch between one day's end and the next day's start.
 */
export function rangeToQuery(from: string | undefined, to: string | undefined, zone: Zone): DateRange {
  return dateRange(
    from ? new Date(startOfDay(from, zone)).toISOString() : undefined,
    to ? new Date(startOfDay(to, zone, 1) - 1).toISOString().replace(/Z$/, '999Z') : undefined,
  );
}

export function formatDay(ms: number, zone: Zone): string {
  return dayText(dayIn(ms, zone));
}
