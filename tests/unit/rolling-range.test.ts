import { describe, expect, it } from 'vitest';
import { rangeToQuery } from '@/lib/explorer/date-range';
import {
  dayCount,
  isRangeEnd,
  isRangeStart,
  isRolling,
  lastDaysOf,
  PRESET_ENDS,
  presetOf,
  resolveRange,
  reversed,
  todayIn,
  withEnd,
} from '@/lib/explorer/range/rolling';
import { explicitQuery, readState } from '@/lib/explorer/url-state';

/** The days a URL's ends stand for at the instant `now` (ms), in `zone`. */
const at = (from: string, to: string, zone: string, now: number) => resolveRange(from, to, todayIn(zone, now));

describe('rolling ends, read', () => {
  it('takes days, now-<n>d, now/y and all as a start; days and now as an end', () => {
    for (const ok of ['2026-05-01', 'now-1d', 'now-7d', 'now-90d', 'now-99999d', 'now/y', 'all'])
      expect(isRangeStart(ok), ok).toBe(true);
    for (const bad of [
      'now',
      'now-0d',
      'now-07d',
      'now-100000d',
      'now-7D',
      'now-7w',
      'now/M',
      'now-1y',
      'ALL',
      '2026-02-29',
      '2026-5-1',
      ' now-7d',
      '',
    ]) {
      expect(isRangeStart(bad), bad).toBe(false);
    }
    for (const ok of ['now', '2024-02-29']) expect(isRangeEnd(ok), ok).toBe(true);
    for (const bad of ['all', 'now-1d', 'now/y', 'today', '2026-13-01']) expect(isRangeEnd(bad), bad).toBe(false);
    expect(lastDaysOf('now-30d')).toBe(30);
    expect(lastDaysOf('2026-05-01')).toBeNull();
  });

  it('names the presets by what they write, and only rolling ranges as rolling', () => {
    expect(PRESET_ENDS).toEqual({
      '7d': { from: 'now-7d', to: 'now' },
      '30d': { from: 'now-30d', to: 'now' },
      '90d': { from: 'now-90d', to: 'now' },
      ytd: { from: 'now/y', to: 'now' },
      all: { from: 'all', to: 'now' },
    });
    expect(presetOf('now-90d', 'now')).toBe('90d');
    expect(presetOf('now-14d', 'now')).toBeNull();
    expect(presetOf('2026-08-29', '2026-11-26')).toBeNull();
    expect(isRolling('2026-01-01', 'now')).toBe(true);
    expect(isRolling('now-7d', '2026-01-01')).toBe(true);
    expect(isRolling('all', '2026-01-01')).toBe(false);
    expect(isRolling('2026-01-01', '2026-02-01')).toBe(false);
  });
});

describe('rolling ends, resolved to calendar days', () => {
  it('counts today in: now-<n>d is today and the n − 1 days before it', () => {
    const now = Date.UTC(2026, 10, 26, 12);
    expect(at('now-90d', 'now', 'UTC', now)).toEqual({ from: '2026-08-29', to: '2026-11-26' });
    expect(at('now-7d', 'now', 'UTC', now)).toEqual({ from: '2026-11-20', to: '2026-11-26' });
    expect(at('now-1d', 'now', 'UTC', now)).toEqual({ from: '2026-11-26', to: '2026-11-26' });
    const { from, to } = at('now-30d', 'now', 'UTC', now);
    expect(dayCount(from!, to!)).toBe(30);
  });

  it('moves with the clock: the same link a month later shows that month’s days', () => {
    expect(at('now-90d', 'now', 'UTC', Date.UTC(2026, 11, 26, 12))).toEqual({ from: '2026-09-28', to: '2026-12-26' });
  });

  it('reads today in the URL’s zone, not the browser’s or UTC', () => {
    // 23:30 UTC on New Year's Eve is already 2027 in Tokyo and Kiritimati (UTC+14), still 2026 in Los Angeles.
    const eve = Date.UTC(2026, 11, 31, 23, 30);
    expect(at('now/y', 'now', 'Asia/Tokyo', eve)).toEqual({ from: '2027-01-01', to: '2027-01-01' });
    expect(at('now/y', 'now', 'Pacific/Kiritimati', Date.UTC(2026, 11, 31, 10, 30))).toEqual({
      from: '2027-01-01',
      to: '2027-01-01',
    });
    expect(at('now/y', 'now', 'America/Los_Angeles', eve)).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(at('now-7d', 'now', 'America/Los_Angeles', eve)).toEqual({ from: '2026-12-25', to: '2026-12-31' });
    // Half-hour zone, a minute after its midnight.
    expect(at('now-1d', 'now', 'Asia/Kolkata', Date.UTC(2026, 2, 31, 18, 31))).toEqual({
      from: '2026-04-01',
      to: '2026-04-01',
    });
  });

  it('starts the year on 1 January, whatever the day of the year', () => {
    expect(at('now/y', 'now', 'UTC', Date.UTC(2026, 0, 1, 0, 0))).toEqual({ from: '2026-01-01', to: '2026-01-01' });
    expect(at('now/y', 'now', 'UTC', Date.UTC(2024, 11, 31, 23, 59))).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    // Counting back across the year's start and a leap day.
    expect(at('now-7d', 'now', 'UTC', Date.UTC(2027, 0, 3))).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(at('now-2d', 'now', 'UTC', Date.UTC(2024, 2, 1))).toEqual({ from: '2024-02-29', to: '2024-03-01' });
  });

  it('counts calendar days across DST changes, and the query covers whole days of the zone', () => {
    // Amsterdam springs forward on 29 March 2026 (a 23-hour day: the start is on UTC+1, the end on UTC+2) and
    // falls back on 25 October 2026 (25 hours).
    const spring = at('now-7d', 'now', 'Europe/Amsterdam', Date.UTC(2026, 2, 31, 22, 30)); // 00:30 on 1 April there
    expect(spring).toEqual({ from: '2026-03-26', to: '2026-04-01' });
    expect(rangeToQuery(spring.from, spring.to, 'Europe/Amsterdam')).toEqual({
      start_date: '2026-03-25T23:00:00.000Z',
      end_date: '2026-04-01T21:59:59.999999Z',
    });
    const fall = at('now-30d', 'now', 'Europe/Amsterdam', Date.UTC(2026, 10, 5, 0, 30));
    expect(fall).toEqual({ from: '2026-10-07', to: '2026-11-05' });
    expect(rangeToQuery(fall.from, fall.to, 'Europe/Amsterdam')).toEqual({
      start_date: '2026-10-06T22:00:00.000Z',
      end_date: '2026-11-05T22:59:59.999999Z',
    });
  });

  it('keeps All time open at both ends (one range whatever the day), and every other now as today', () => {
    const now = Date.UTC(2026, 10, 26, 12);
    expect(at('all', 'now', 'UTC', now)).toEqual({});
    expect(at('all', '2026-05-01', 'UTC', now)).toEqual({ to: '2026-05-01' });
    expect(at('2026-05-01', 'now', 'UTC', now)).toEqual({ from: '2026-05-01', to: '2026-11-26' });
    expect(at('2026-05-01', '2026-05-31', 'UTC', now)).toEqual({ from: '2026-05-01', to: '2026-05-31' });
    // A rolling range and the same days written out are one range to the caches.
    expect(rangeToQuery(...(Object.values(at('now-90d', 'now', 'UTC', now)) as [string, string]), 'UTC')).toEqual(
      rangeToQuery('2026-08-29', '2026-11-26', 'UTC'),
    );
  });

  it('finds From after To once the ends are days', () => {
    const now = Date.UTC(2026, 10, 26, 12);
    expect(reversed(at('2026-03-31', '2026-03-01', 'UTC', now))).toBe(true);
    expect(reversed(at('now-7d', '2026-01-01', 'UTC', now))).toBe(true);
    expect(reversed(at('now-7d', 'now', 'UTC', now))).toBe(false);
    expect(reversed(at('2027-01-01', 'now', 'UTC', now))).toBe(true);
  });
});

describe('setting one end', () => {
  const today = '2026-11-26';
  it('moves the other along when it passes it, keeping the range’s length', () => {
    expect(withEnd({ from: '2026-05-01', to: '2026-05-31' }, 'from', '2026-06-10', today)).toEqual({
      from: '2026-06-10',
      to: '2026-07-10',
      moved: { end: 'to', day: '2026-07-10' },
    });
    expect(withEnd({ from: '2026-05-01', to: '2026-05-31' }, 'to', '2026-04-10', today)).toEqual({
      from: '2026-03-11',
      to: '2026-04-10',
      moved: { end: 'from', day: '2026-03-11' },
    });
    // A rolling end passed becomes a day; an All time start gives a one-day range.
    expect(withEnd({ from: 'now-7d', to: 'now' }, 'from', '2026-12-01', today)).toEqual({
      from: '2026-12-01',
      to: '2026-12-07',
      moved: { end: 'to', day: '2026-12-07' },
    });
    expect(withEnd({ from: 'all', to: '2026-05-01' }, 'from', '2026-06-01', today)).toEqual({
      from: '2026-06-01',
      to: '2026-06-01',
      moved: { end: 'to', day: '2026-06-01' },
    });
  });

  it('leaves the other end as written when it does not pass it: a rolling To stays rolling', () => {
    expect(withEnd({ from: 'now-90d', to: 'now' }, 'from', '2026-01-01', today)).toEqual({
      from: '2026-01-01',
      to: 'now',
      moved: null,
    });
    expect(withEnd({ from: 'now-90d', to: 'now' }, 'to', '2026-10-01', today)).toEqual({
      from: 'now-90d',
      to: '2026-10-01',
      moved: null,
    });
    expect(withEnd({ from: 'all', to: 'now' }, 'to', '2020-01-01', today)).toEqual({
      from: 'all',
      to: '2020-01-01',
      moved: null,
    });
    expect(withEnd({ from: '2026-05-01', to: '2026-05-31' }, 'from', '2026-05-31', today).moved).toBeNull();
  });
});

describe('the address the page writes in', () => {
  const explicit = (query: string) => {
    const params = new URLSearchParams(query);
    return explicitQuery(params, readState(params).state);
  };
  it('adds the range an older link left out, first, and names the zone; leaves a whole link alone', () => {
    expect(explicit('tz=Europe/Berlin')).toBe('from=all&to=now&tz=Europe/Berlin');
    expect(explicit('from=2025-05-01&tz=UTC')).toBe('from=2025-05-01&to=now&tz=UTC');
    expect(explicit('q=tray&to=2025-05-01&tz=UTC')).toBe('from=all&to=2025-05-01&q=tray&tz=UTC');
    expect(explicit('tz=UTC&from=2025-01-01&to=2025-01-31')).toBeNull();
    expect(explicit('from=now-7d&to=now&tz=utc')).toBe('from=now-7d&to=now&tz=UTC');
  });

  it('keeps a broken day to be explained, and drops the default view’s one-shot parameter', () => {
    expect(explicit('from=2025-02-30&tz=UTC')).toBe('from=2025-02-30&to=now&tz=UTC');
    expect(explicit('from=now-7d&to=now&crop=Tomato&tz=UTC&opened=default')).toBe(
      'from=now-7d&to=now&crop=Tomato&tz=UTC',
    );
    expect(explicit('crop=Tomato&opened=default')).toMatch(/^from=all&to=now&crop=Tomato&tz=[^&]+$/);
  });
});
