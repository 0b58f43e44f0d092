import { describe, expect, it } from 'vitest';
import { germinationOverTime } from '@/lib/explorer/aggregate';
import { describeSpans, missingSpans } from '@/lib/explorer/missing';
import { toRow } from '@/lib/explorer/rows';
import { generateBatches } from '@/sandbox/data/generate';

const range = { start_date: '2025-01-01T00:00:00.000Z', end_date: '2025-12-31T23:59:59.999999Z' };

describe('what has not arrived', () => {
  it('nothing once complete; the whole range before the server names parts; else the parts it named, merged', () => {
    expect(missingSpans(range, true, null)).toEqual([]);
    expect(missingSpans(range, false, '')).toEqual([]);
    expect(missingSpans(range, false, null)).toEqual([{ from: Date.parse(range.start_date), to: Date.parse(range.end_date) }]);
    expect(missingSpans({}, false, null)).toEqual([{ from: -Infinity, to: Infinity }]);
    const spans = missingSpans(range, false, '2025-06-01T00:00:00Z~2025-06-30T23:59:59Z,2025-03-01T00:00:00Z~2025-03-31T00:00:00Z,2025-06-30T23:59:59Z~2025-07-02T00:00:00Z');
    expect(spans).toEqual([
      { from: Date.parse('2025-03-01T00:00:00Z'), to: Date.parse('2025-03-31T00:00:00Z') },
      { from: Date.parse('2025-06-01T00:00:00Z'), to: Date.parse('2025-07-02T00:00:00Z') },
    ]);
    expect(describeSpans(spans, 'UTC')).toBe('2025-03-01 to 2025-03-31, 2025-06-01 to 2025-07-02');
    expect(missingSpans({}, false, '~2025-02-01T00:00:00Z')).toEqual([{ from: -Infinity, to: Date.parse('2025-02-01T00:00:00Z') }]);
    expect(describeSpans(missingSpans({}, false, '~2025-02-01T00:00:00Z,2025-05-01T00:00:00Z~'), 'UTC', 1)).toBe('everything up to 2025-02-01 and 1 more span');
  });

  it('the time chart has no value in a bucket that overlaps what has not arrived, and a break at its start', () => {
    const rows = generateBatches({ seed: 'gaps', count: 2_000, anchorMs: Date.UTC(2026, 0, 1), scanners: ['a@x.example'], reportBaseUrl: 'https://r.example' }).map(toRow);
    const gap = { from: Date.UTC(2025, 5, 1), to: Date.UTC(2025, 7, 31) };
    // What the page has when that span never arrived.
    const loaded = rows.filter((r) => r.time < gap.from || r.time > gap.to);
    const { points, crops } = germinationOverTime(loaded, 'UTC', [gap]);
    const inGap = points.filter((p) => p.t + 7 * 86_400_000 > gap.from && p.t <= gap.to);
    expect(inGap.length).toBeGreaterThan(0);
    for (const p of inGap) for (const c of crops) expect(p[c]).toBeNull();
    const outside = points.filter((p) => p.t > gap.to + 40 * 86_400_000);
    expect(outside.some((p) => crops.some((c) => p[c] !== null))).toBe(true);
    // Without the span the chart would join the two sides with a straight line: no point between them.
    const plain = germinationOverTime(loaded, 'UTC').points;
    expect(plain.filter((p) => p.t >= gap.from && p.t <= gap.to - 40 * 86_400_000)).toEqual([]);
  });
});
