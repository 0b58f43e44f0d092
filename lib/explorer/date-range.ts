/** Calendar days in the URL become UTC instants covering whole days in the chosen zone (DST included). */
import { dateRange, type DateRange } from '../contract';

export type Zone = 'local' | 'utc';
export type Preset = '7d' | '30d' | '90d' | 'ytd' | 'all';

export const PRESETS: { id: Preset; label: string }[] = [
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
  { id: '90d', label: 'Last 90 days' },
  { id: 'ytd', label: 'This year' },
  { id: 'all', label: 'All time' },
];

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function parseDay(value: string): { y: number; m: number; d: number } | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  return { y, m, d };
}

function startOfDay(day: string, zone: Zone, offsetDays = 0): number {
  const p = parseDay(day)!;
  return zone === 'utc' ? Date.UTC(p.y, p.m - 1, p.d + offsetDays) : new Date(p.y, p.m - 1, p.d + offsetDays).getTime();
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
  const d = new Date(ms);
  const [y, m, day] = zone === 'utc' ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()] : [d.getFullYear(), d.getMonth() + 1, d.getDate()];
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The from/to days of a preset, counted back from today in the zone. */
export function presetRange(preset: Preset, zone: Zone, now = Date.now()): { from?: string; to?: string } {
  if (preset === 'all') return {};
  const today = formatDay(now, zone);
  if (preset === 'ytd') return { from: `${today.slice(0, 4)}-01-01`, to: today };
  const days = preset === '7d' ? 6 : preset === '30d' ? 29 : 89;
  return { from: formatDay(startOfDay(today, zone, -days) + 43_200_000, zone), to: today };
}

export function matchingPreset(from: string | undefined, to: string | undefined, zone: Zone, now = Date.now()): Preset | null {
  for (const { id } of PRESETS) {
    const r = presetRange(id, zone, now);
    if (r.from === from && r.to === to) return id;
  }
  return null;
}
