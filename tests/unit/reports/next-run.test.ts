import { describe, expect, it } from 'vitest';
import { instantAt, nextRunAfter, type ScheduleTiming } from '@/lib/reports/next-run';

const at = (iso: string) => Date.parse(iso);
const next = (s: ScheduleTiming, after: string) => new Date(nextRunAfter(s, at(after))).toISOString();
const daily = (time: string, timeZone: string): ScheduleTiming => ({ cadence: 'daily', time, timeZone });

describe('nextRunAfter', () => {
  it('runs daily at the time in the zone, later today or tomorrow', () => {
    expect(next(daily('07:30', 'Europe/Berlin'), '2026-11-27T05:00:00Z')).toBe('2026-11-27T06:30:00.000Z');
    expect(next(daily('07:30', 'Europe/Berlin'), '2026-11-27T06:30:00Z')).toBe('2026-11-28T06:30:00.000Z');
    expect(next(daily('23:45', 'America/New_York'), '2026-11-28T04:00:00Z')).toBe('2026-11-28T04:45:00.000Z');
    expect(next(daily('00:15', 'UTC'), '2026-12-31T23:00:00Z')).toBe('2027-01-01T00:15:00.000Z');
  });

  it('keeps the wall-clock time across summer time, both ways', () => {
    // Berlin: CET (+1) until 29 March 2026 01:00 UTC, CEST (+2) until 25 October 2026 01:00 UTC.
    expect(next(daily('07:30', 'Europe/Berlin'), '2026-03-28T07:00:00Z')).toBe('2026-03-29T05:30:00.000Z');
    expect(next(daily('07:30', 'Europe/Berlin'), '2026-03-29T05:30:00Z')).toBe('2026-03-30T05:30:00.000Z');
    expect(next(daily('07:30', 'Europe/Berlin'), '2026-10-24T06:00:00Z')).toBe('2026-10-25T06:30:00.000Z');
    // New York: EDT from 8 March 2026.
    expect(next(daily('09:00', 'America/New_York'), '2026-03-07T15:00:00Z')).toBe('2026-03-08T13:00:00.000Z');
  });

  it('moves a time the clock skips past the gap, and takes the first of a time read twice', () => {
    // 02:30 does not exist in Berlin on 29 March 2026: it runs at 03:30 CEST.
    expect(next(daily('02:30', 'Europe/Berlin'), '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October 2026: the first, still CEST.
    expect(next(daily('02:30', 'Europe/Berlin'), '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    // ... and only once: the next run is the day after.
    expect(next(daily('02:30', 'Europe/Berlin'), '2026-10-25T00:30:00Z')).toBe('2026-10-26T01:30:00.000Z');
    expect(new Date(instantAt(2026, 3, 29, 2, 30, 'Europe/Berlin')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('runs weekly on the weekday, in the zone (its day, not UTC’s)', () => {
    const monday = (timeZone: string): ScheduleTiming => ({ cadence: 'weekly', weekday: 1, time: '06:00', timeZone });
    // Friday 27 November 2026: the next Monday is 30 November.
    expect(next(monday('Europe/Amsterdam'), '2026-11-27T10:00:00Z')).toBe('2026-11-30T05:00:00.000Z');
    // Monday 06:00 in Auckland (+13) is Sunday in UTC.
    expect(next(monday('Pacific/Auckland'), '2026-11-27T10:00:00Z')).toBe('2026-11-29T17:00:00.000Z');
    // Sunday is 7.
    expect(next({ cadence: 'weekly', weekday: 7, time: '18:00', timeZone: 'UTC' }, '2026-11-29T18:00:00Z')).toBe(
      '2026-12-06T18:00:00.000Z',
    );
  });

  it('runs monthly on the day, over year ends and summer time', () => {
    const on = (dayOfMonth: number): ScheduleTiming => ({
      cadence: 'monthly',
      dayOfMonth,
      time: '08:00',
      timeZone: 'Europe/Berlin',
    });
    expect(next(on(1), '2026-11-27T10:00:00Z')).toBe('2026-12-01T07:00:00.000Z');
    expect(next(on(28), '2026-12-28T07:00:00Z')).toBe('2027-01-28T07:00:00.000Z');
    expect(next(on(28), '2026-02-28T07:00:00Z')).toBe('2026-03-28T07:00:00.000Z');
    // The 1st of April is in summer time: 08:00 CEST is 06:00 UTC.
    expect(next(on(1), '2026-03-02T00:00:00Z')).toBe('2026-04-01T06:00:00.000Z');
  });
});
