import { describe, expect, it } from 'vitest';
import { canonicalZone, dayIn, offsetAt, startOfDayIn, zoneChoices, zoneOfParam } from '@/lib/explorer/zones';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);
const HOUR = 3_600_000;

describe('zone names', () => {
  it('canonicalises what Intl knows and refuses the rest', () => {
    expect(canonicalZone('europe/amsterdam')).toBe('Europe/Amsterdam');
    expect(canonicalZone('Etc/UTC')).toBe('UTC');
    // The zone asked for, not ICU's older alias of it.
    expect(canonicalZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalZone('asia/kolkata')).toMatch(/^Asia\/(Kolkata|Calcutta)$/);
    expect(canonicalZone('Mars/Olympus')).toBeNull();
    expect(canonicalZone('utc')).toBe('UTC');
    expect(canonicalZone('US/Pacific')).toBe('America/Los_Angeles');
    for (const bad of ['Mars/Olympus', 'local', '', undefined, '+01:00x', 'x'.repeat(200)])
      expect(canonicalZone(bad)).toBeNull();
  });

  it('reads a tz parameter: old utc is UTC; local, missing and unknown are the viewer zone', () => {
    const viewer = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(zoneOfParam('utc')).toBe('UTC');
    expect(zoneOfParam('Asia/Tokyo')).toBe('Asia/Tokyo');
    for (const v of ['local', undefined, 'Mars/Olympus']) expect(zoneOfParam(v)).toBe(canonicalZone(viewer));
  });

  it('offers the browser zone first, then UTC, then every IANA zone once', () => {
    const choices = zoneChoices('Europe/Amsterdam');
    expect(choices.slice(0, 2)).toEqual(['Europe/Amsterdam', 'UTC']);
    expect(choices).toContain('America/Los_Angeles');
    expect(new Set(choices).size).toBe(choices.length);
  });
});

describe('offsets and days', () => {
  it('reads offsets either side of DST changes and in half-hour zones', () => {
    expect(offsetAt(at('2025-03-30T00:59:59Z'), 'Europe/Amsterdam')).toBe(HOUR);
    expect(offsetAt(at('2025-03-30T01:00:00Z'), 'Europe/Amsterdam')).toBe(2 * HOUR);
    expect(offsetAt(at('2025-11-02T08:59:59Z'), 'America/Los_Angeles')).toBe(-7 * HOUR);
    expect(offsetAt(at('2025-11-02T09:00:00Z'), 'America/Los_Angeles')).toBe(-8 * HOUR);
    expect(offsetAt(at('2025-06-01T00:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(offsetAt(at('2025-06-01T00:00:00.999Z'), 'UTC')).toBe(0);
  });

  it('puts an instant on its calendar day in the zone', () => {
    const ms = at('2026-10-21T22:30:00Z');
    expect(dayIn(ms, 'Europe/Amsterdam')).toEqual({ y: 2026, m: 10, d: 22 });
    expect(dayIn(ms, 'America/Los_Angeles')).toEqual({ y: 2026, m: 10, d: 21 });
    expect(dayIn(at('2025-12-31T18:29:59Z'), 'Asia/Kolkata')).toEqual({ y: 2025, m: 12, d: 31 });
    expect(dayIn(at('2025-12-31T18:30:00Z'), 'Asia/Kolkata')).toEqual({ y: 2026, m: 1, d: 1 });
  });
});

describe('the first instant of a day', () => {
  const start = (day: string, zone: string) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return iso(startOfDayIn(y, m, d, zone));
  };
  const hours = (day: string, next: string, zone: string) =>
    (Date.parse(start(next, zone)) - Date.parse(start(day, zone))) / HOUR;

  it('Europe/Amsterdam: a 23-hour and a 25-hour day', () => {
    expect(start('2025-03-30', 'Europe/Amsterdam')).toBe('2025-03-29T23:00:00.000Z');
    expect(hours('2025-03-30', '2025-03-31', 'Europe/Amsterdam')).toBe(23);
    expect(start('2025-10-26', 'Europe/Amsterdam')).toBe('2025-10-25T22:00:00.000Z');
    expect(hours('2025-10-26', '2025-10-27', 'Europe/Amsterdam')).toBe(25);
  });

  it('America/Los_Angeles: both changes (at 02:00 local)', () => {
    expect(start('2025-03-09', 'America/Los_Angeles')).toBe('2025-03-09T08:00:00.000Z');
    expect(hours('2025-03-09', '2025-03-10', 'America/Los_Angeles')).toBe(23);
    expect(start('2025-11-02', 'America/Los_Angeles')).toBe('2025-11-02T07:00:00.000Z');
    expect(hours('2025-11-02', '2025-11-03', 'America/Los_Angeles')).toBe(25);
  });

  it('Asia/Kolkata: half-hour offset', () => {
    expect(start('2026-01-01', 'Asia/Kolkata')).toBe('2025-12-31T18:30:00.000Z');
  });

  it('a midnight the zone skips: the day begins at the jump (America/Santiago, Asia/Beirut)', () => {
    // 2024-09-08 00:00 -04 became 01:00 -03 in Santiago; 2025-03-30 00:00 +02 became 01:00 +03 in Beirut.
    expect(start('2024-09-08', 'America/Santiago')).toBe('2024-09-08T04:00:00.000Z');
    expect(dayIn(at('2024-09-08T04:00:00Z'), 'America/Santiago')).toEqual({ y: 2024, m: 9, d: 8 });
    expect(dayIn(at('2024-09-08T03:59:59Z'), 'America/Santiago')).toEqual({ y: 2024, m: 9, d: 7 });
    expect(hours('2024-09-07', '2024-09-08', 'America/Santiago')).toBe(24);
    expect(hours('2024-09-08', '2024-09-09', 'America/Santiago')).toBe(23);
    expect(start('2025-03-30', 'Asia/Beirut')).toBe('2025-03-29T22:00:00.000Z');
    expect(hours('2025-03-30', '2025-03-31', 'Asia/Beirut')).toBe(23);
  });

  it('a midnight that happens twice: the first of them (America/Havana falls back from 01:00 to 00:00)', () => {
    expect(start('2025-11-02', 'America/Havana')).toBe('2025-11-02T04:00:00.000Z');
    expect(hours('2025-11-02', '2025-11-03', 'America/Havana')).toBe(25);
    // Santiago falls back from 24:00 to 23:00: the Saturday has 25 hours, its Sunday one midnight.
    expect(hours('2025-04-05', '2025-04-06', 'America/Santiago')).toBe(25);
    expect(start('2025-04-06', 'America/Santiago')).toBe('2025-04-06T04:00:00.000Z');
  });

  it('rolls days over like Date (day 0 is the last of the month before)', () => {
    expect(iso(startOfDayIn(2025, 3, 0, 'UTC'))).toBe('2025-02-28T00:00:00.000Z');
    expect(iso(startOfDayIn(2024, 12, 32, 'Asia/Tokyo'))).toBe('2024-12-31T15:00:00.000Z');
  });
});
