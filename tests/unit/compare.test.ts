import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS } from '@/lib/contract/targets';
import {
  comparisonFilter,
  comparisonWindow,
  countChange,
  describeWindow,
  ppChange,
  yearBefore,
} from '@/lib/explorer/compare';

import { speech } from '../helpers/speech';

const AMS = 'Europe/Amsterdam';
const EN = speech();
const iso = (ms: number) => new Date(ms).toISOString();

describe('comparisonWindow', () => {
  it('previous period: as many whole days right before, across a DST change (a 167-hour week against 168)', () => {
    const w = comparisonWindow('previous', '2025-03-24', '2025-03-30', AMS, Date.parse('2025-06-01T00:00:00Z'))!;
    expect(w.partial).toBe(false);
    expect(w.days).toEqual({ from: '2025-03-17', to: '2025-03-23' });
    expect(iso(w.current.from)).toBe('2025-03-23T23:00:00.000Z');
    expect(iso(w.current.to)).toBe('2025-03-30T22:00:00.000Z'); // summer time from 30 March
    expect(iso(w.comparison.from)).toBe('2025-03-16T23:00:00.000Z');
    expect(iso(w.comparison.to)).toBe('2025-03-23T23:00:00.000Z');
    expect(w.shiftMs).toBe(7 * 86_400_000);
    expect(w.range).toEqual({ start_date: '2025-03-16T23:00:00.000Z', end_date: '2025-03-23T22:59:59.999999Z' });
    expect(describeWindow(w, AMS, EN)).toMatch(/^17\s?–\s?23 Mar 2025$/); // ICU's range format, spaces as its version has them
  });

  it('a week still running is compared with the same span of the week before, to the same time of day', () => {
    // Wednesday 2 April 2025, 14:05 summer time; the week before was still on winter time.
    const now = Date.parse('2025-04-02T12:05:00Z');
    const w = comparisonWindow('previous', '2025-03-31', '2025-04-06', AMS, now)!;
    expect(w.partial).toBe(true);
    expect(w.current).toEqual({ from: Date.parse('2025-03-30T22:00:00Z'), to: now });
    expect(w.days).toEqual({ from: '2025-03-24', to: '2025-03-26' });
    expect(iso(w.comparison.from)).toBe('2025-03-23T23:00:00.000Z');
    expect(iso(w.comparison.to)).toBe('2025-03-26T13:05:00.000Z'); // 14:05 winter time
    expect(w.range.end_date).toBe('2025-03-26T13:04:59.999999Z');
    expect(w.shiftMs).toBe(7 * 86_400_000 - 3_600_000);
    expect(describeWindow(w, AMS, EN)).toMatch(/^24\s?–\s?26 Mar 2025, up to 14:05$/);
  });

  it('an open end means up to now; All time has nothing to compare with', () => {
    const now = Date.parse('2025-05-14T09:30:00Z');
    const w = comparisonWindow('previous', '2025-05-08', undefined, 'UTC', now)!;
    expect(w.partial).toBe(true);
    expect(w.days).toEqual({ from: '2025-05-01', to: '2025-05-07' });
    expect(iso(w.comparison.to)).toBe('2025-05-07T09:30:00.000Z');
    expect(w.comparison.to - w.comparison.from).toBe(w.current.to - w.current.from);
    expect(comparisonWindow('previous', undefined, '2025-05-14', 'UTC', now)).toBeNull();
    expect(comparisonWindow('last-year', undefined, undefined, 'UTC', now)).toBeNull();
  });

  it('same period last year: the same calendar days, 29 February as 28 February', () => {
    const past = Date.parse('2026-01-01T00:00:00Z');
    expect(comparisonWindow('last-year', '2024-02-29', '2024-02-29', 'UTC', past)!.days).toEqual({
      from: '2023-02-28',
      to: '2023-02-28',
    });
    const spring = comparisonWindow('last-year', '2024-02-01', '2024-03-31', 'UTC', past)!;
    expect(spring.days).toEqual({ from: '2023-02-01', to: '2023-03-31' });
    expect(describeWindow(spring, 'UTC', EN)).toMatch(/^1 Feb\s?–\s?31 Mar 2023$/);
    expect(yearBefore('2025-03-01')).toBe('2024-03-01');
    expect(yearBefore('2028-02-29')).toBe('2027-02-28');
    // Running: to the same time of day, a year earlier (here across Amsterdam's DST change of 2024-03-31).
    const now = Date.parse('2025-03-31T12:00:00Z'); // 14:00 summer time
    const w = comparisonWindow('last-year', '2025-03-01', '2025-03-31', AMS, now)!;
    expect(w.days).toEqual({ from: '2024-03-01', to: '2024-03-31' });
    expect(iso(w.comparison.to)).toBe('2024-03-31T12:00:00.000Z'); // 14:00 summer time too
  });
});

describe('changes', () => {
  it('rates in percentage points with the real minus sign, counts in percent', () => {
    expect(ppChange(91.25, 90.05)).toBe('+1.2 pp');
    expect(ppChange(90, 90.8)).toBe('\u22120.8 pp');
    expect(ppChange(90.01, 90.03)).toBe('±0.0 pp');
    expect(ppChange(null, 90)).toBeNull();
    expect(countChange(112, 100)).toBe('+12%');
    expect(countChange(966, 1000)).toBe('\u22123.4%');
    expect(countChange(100, 100)).toBe('±0%');
    expect(countChange(100.04, 100)).toBe('±0%');
    expect(countChange(5, 0)).toBeNull();
    expect(countChange(0, 0)).toBe('±0%');
    const de = speech('de', 'de-DE');
    expect(ppChange(91.25, 90.05, de)).toBe('+1,2 Pp.');
    expect(ppChange(90.01, 90.03, de)).toBe('±0,0 Pp.');
    // German writes a space before the sign, as its percents everywhere do.
    expect(countChange(966, 1000, de)?.replace(/\s/g, ' ')).toBe('\u22123,4 %');
    expect(countChange(1_234_500, 100, de)?.replace(/\s/g, ' ')).toBe('+1.234.400 %');
    expect(ppChange(91.25, 90.05, EN)).toBe('+1.2 pp');
  });
});

describe('comparisonFilter', () => {
  it('keeps every filter, and moves a days drill-down into the comparison window', () => {
    const plain = { q: 'gh1', crop: 'Lettuce', targets: DEFAULT_TARGETS };
    expect(comparisonFilter(plain, 1000)).toBe(plain);
    const drill = { bins: [], within: { from: 10_000, to: 20_000 }, scanner: 'a@x.example' };
    expect(comparisonFilter({ ...plain, drill }, 7000)).toEqual({
      ...plain,
      drill: { bins: [], within: { from: 3000, to: 13_000 }, scanner: 'a@x.example' },
    });
  });
});
