/**
 * When a report schedule runs next: a wall-clock time in the schedule's zone, daily, weekly on a weekday or
 * monthly on a day, computed in that zone so that 07:30 stays 07:30 across a change of summer time.
 */
import { civilToMs } from '../utc-date';
import { offsetAt, type Zone } from '../explorer/zones';
import type { ReportScheduleInput } from '../contract/alerts';

const DAY = 86_400_000;

/** What the next run depends on (not the recipients). */
export type ScheduleTiming = Pick<ReportScheduleInput, 'cadence' | 'weekday' | 'dayOfMonth' | 'time' | 'timeZone'>;

/**
 * The instant the zone's clock reads y-m-d h:mi. A time the clock skips (02:30 on a spring-forward night) is
 * read on the offset before the jump, so it lands the gap later (03:30); a time it reads twice (a fall-back
 * night) is the first of them: as Temporal's `compatible` disambiguation does.
 */
export function instantAt(y: number, m: number, d: number, h: number, mi: number, zone: Zone): number {
  const wall = civilToMs(y, m, d, h, mi);
  const before = offsetAt(wall - DAY, zone);
  const after = offsetAt(wall + DAY, zone);
  const fits = [wall - before, wall - after].filter((t) => offsetAt(t, zone) === wall - t);
  return fits.length > 0 ? Math.min(...fits) : wall - before;
}

/** 1 (Monday) to 7 (Sunday) of a calendar day. */
const isoWeekday = (y: number, m: number, d: number) => ((new Date(civilToMs(y, m, d)).getUTCDay() + 6) % 7) + 1;

function runsOn(s: ScheduleTiming, y: number, m: number, d: number): boolean {
  if (s.cadence === 'weekly') return isoWeekday(y, m, d) === s.weekday;
  if (s.cadence === 'monthly') return d === s.dayOfMonth;
  return true;
}

/** The first run strictly after `afterMs` (ms); every cadence has one within 32 days. */
export function nextRunAfter(s: ScheduleTiming, afterMs: number): number {
  const [h, mi] = s.time.split(':').map(Number) as [number, number];
  const local = new Date(afterMs + offsetAt(afterMs, s.timeZone));
  const [y, m, d] = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
  // From the day before (a run late that day may still lie ahead in UTC terms) to a month and more after.
  for (let k = -1; k <= 40; k++) {
    const day = new Date(civilToMs(y, m, d + k));
    const [dy, dm, dd] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
    if (!runsOn(s, dy, dm, dd)) continue;
    const at = instantAt(dy, dm, dd, h, mi, s.timeZone);
    if (at > afterMs) return at;
  }
  throw new Error(`no run of the schedule within 40 days of ${new Date(afterMs).toISOString()}`);
}

/** The calendar day (YYYY-MM-DD) an instant falls on in the zone. */
export function dayOf(ms: number, zone: Zone): string {
  return new Date(ms + offsetAt(ms, zone)).toISOString().slice(0, 10);
}
