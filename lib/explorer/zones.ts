/**
 * Time zones without a library: an IANA name or `UTC`, and the arithmetic the explorer needs (a zone's offset
 * at an instant, the calendar day of an instant, the first instant of a calendar day), all through Intl.
 */

import { civilToMs } from '../utc-date';

/** An IANA zone name as Intl canonicalises it (`Europe/Amsterdam`), or `UTC`. */
export type Zone = string;

export const UTC: Zone = 'UTC';

let listed: Map<string, Zone> | undefined;

/** An IANA name under one of today's areas (`Asia/Kolkata`, `Europe/Kyiv`), not a backward link like `US/Pacific`. */
const CURRENT_NAME =
  /^(Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)(\/[A-Z][A-Za-z0-9_+-]*)+$/;

/** Every zone name Intl lists, by its lower-case spelling. */
function listedZones(): Map<string, Zone> {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return (listed ??= new Map(all.map((z) => [z.toLowerCase(), z])));
}

/**
 * The name of a zone Intl knows as people spell it (`europe/amsterdam` → `Europe/Amsterdam`, `Etc/UTC` →
 * `UTC`), or null. A name Intl accepts but resolves to an older alias keeps the name asked for: ICU answers
 * `Asia/Calcutta` for `Asia/Kolkata`, and a link should not rename the zone someone chose.
 */
export function canonicalZone(name: string | null | undefined): Zone | null {
  if (!name || name.length > 100) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (resolved === UTC) return UTC;
  return listedZones().get(name.toLowerCase()) ?? (CURRENT_NAME.test(name) ? name : resolved);
}

/** The zone of the browser (or of the process), UTC when it cannot tell. */
export function viewerZone(): Zone {
  return canonicalZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? UTC;
}

/** The browser's zone first, then UTC, then every IANA zone Intl knows (each once). */
export function zoneChoices(browser: Zone = viewerZone()): Zone[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([browser, UTC, ...all])];
}

export type CivilDay = { y: number; m: number; d: number };

/** Wall-clock fields as if they were UTC, in ms (years 0-99 stay themselves, unlike Date.UTC's). */
export { civilToMs };

const formats = new Map<Zone, Intl.DateTimeFormat>();
function formatIn(zone: Zone): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The wall clock of the zone at an instant, as ms of the same fields read as UTC (whole seconds). */
function wallMs(ms: number, zone: Zone): number {
  const v: Record<string, string> = {};
  for (const p of formatIn(zone).formatToParts(ms)) v[p.type] = p.value;
  const year = v.era === 'BC' || v.era === 'B' ? 1 - Number(v.year) : Number(v.year);
  return civilToMs(year, Number(v.month), Number(v.day), Number(v.hour), Number(v.minute), Number(v.second));
}

/** The zone's offset from UTC at an instant, in ms (Amsterdam in summer: +7,200,000). */
export function offsetAt(ms: number, zone: Zone): number {
  if (zone === UTC) return 0;
  const whole = Math.floor(ms / 1000) * 1000;
  return wallMs(whole, zone) - whole;
}

/** The calendar day an instant falls on in the zone. */
export function dayIn(ms: number, zone: Zone): CivilDay {
  const d = new Date(ms + offsetAt(ms, zone));
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
}

const HOUR = 3_600_000;

/**
 * The first instant of a calendar day in the zone. Usually local midnight; on a day whose midnight the zone
 * skips (America/Santiago in September: 00:00 becomes 01:00) the moment of the jump; on a day whose midnight
 * happens twice (a fall-back at 00:00) the first of them. Days roll over as in Date (d = 32 is the next month's 1st).
 */
export function startOfDayIn(y: number, m: number, d: number, zone: Zone): number {
  const wall = civilToMs(y, m, d);
  if (zone === UTC) return wall;
  // The offsets a day either side: any transition near this midnight lies between them (offsets stay within ±14 h).
  const before = offsetAt(wall - 24 * HOUR, zone);
  const after = offsetAt(wall + 24 * HOUR, zone);
  const candidates = [wall - before, wall - after].filter((t) => offsetAt(t, zone) === wall - t);
  if (candidates.length > 0) return Math.min(...candidates);
  // Midnight was skipped: the day begins at the jump, between the two readings of midnight. Find it to the second.
  let lo = wall - after; // still the day before, on the old offset
  let hi = wall - before; // already this day, on the new one
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (wallMs(mid, zone) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The zone a `tz` parameter names. Links from before zones were named say `utc` (read as UTC) or `local`;
 * `local`, a missing or an unknown name mean the viewer's zone, which the explorer then writes into the URL.
 */
export function zoneOfParam(value: string | undefined): Zone {
  return (value !== 'local' && canonicalZone(value)) || viewerZone();
}
