import { describe, expect, it } from 'vitest';
import { formatUtcDate, lowerBoundMs, parseUtcDate, upperBoundMs } from '@/lib/utc-date';

describe('UTC date rules (docs/batch-data-service.md#dates)', () => {
  it.each([
    ['2025-01-31T00:00:00Z', Date.UTC(2025, 0, 31)],
    ['2025-01-31T00:00:00+00:00', Date.UTC(2025, 0, 31)],
    ['2024-02-29T23:59:59Z', Date.UTC(2024, 1, 29, 23, 59, 59)],
    ['2025-06-01T12:30Z', Date.UTC(2025, 5, 1, 12, 30)],
    ['2025-06-01T12:30:15.250Z', Date.UTC(2025, 5, 1, 12, 30, 15, 250)],
    ['2025-06-01T12:30:15.123456+00:00', Date.UTC(2025, 5, 1, 12, 30, 15, 123)],
    ['0001-01-01T00:00:00Z', new Date('0001-01-01T00:00:00Z').getTime()],
  ])('accepts %s', (value, ms) => {
    const parsed = parseUtcDate(value);
    expect(parsed).toMatchObject({ ok: true, instant: { ms } });
  });

  it.each([
    ['2025-01-31T00:00:00', 'no timezone'],
    ['2025-01-31', 'ISO 8601'],
    ['2025-01-31T00:00:00+01:00', 'not UTC'],
    ['2025-01-31T00:00:00-00:00', 'not UTC'],
    ['2025-01-31T00:00:00+0000', 'not UTC'],
    ['2025-01-31T00:00:00z', 'ISO 8601'],
    ['2025-01-31 00:00:00Z', 'ISO 8601'],
    ['2025-02-30T00:00:00Z', 'calendar'],
    ['2023-02-29T00:00:00Z', 'calendar'],
    ['2025-13-01T00:00:00Z', 'calendar'],
    ['2025-00-10T00:00:00Z', 'calendar'],
    ['2025-01-01T24:00:00Z', 'time of day'],
    ['2025-01-01T23:60:00Z', 'time of day'],
    ['2025-01-01T23:59:60Z', 'time of day'],
    ['', 'ISO 8601'],
    ['yesterday', 'ISO 8601'],
    ['1735689600', 'ISO 8601'],
    [' 2025-01-31T00:00:00Z', 'ISO 8601'],
    ['2025-01-31T00:00:00Z\n', 'ISO 8601'],
    ['2025-01-31T00:00:00.Z', 'ISO 8601'],
  ])('refuses %j (%s)', (value, reason) => {
    const parsed = parseUtcDate(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(reason);
  });

  it('keeps inclusive bounds exact below the millisecond', () => {
    const start = parseUtcDate('2025-01-01T00:00:00.0001Z');
    const end = parseUtcDate('2025-01-01T00:00:00.0009Z');
    if (!start.ok || !end.ok) throw new Error('should parse');
    // A batch at exactly 00:00:00.000 is before the start and on or before the end.
    expect(lowerBoundMs(start.instant)).toBe(Date.UTC(2025, 0, 1) + 1);
    expect(upperBoundMs(end.instant)).toBe(Date.UTC(2025, 0, 1));
  });

  it('formats in the documented Z form', () => {
    expect(formatUtcDate(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('2025-01-02T03:04:05Z');
    expect(formatUtcDate(Date.UTC(2025, 0, 2, 3, 4, 5, 6))).toBe('2025-01-02T03:04:05.006Z');
  });
});
