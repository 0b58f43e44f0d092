import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import { overTime } from '@/lib/explorer/aggregate';
import { describeSpans, missingSpans, spanWordsOf } from '@/lib/explorer/missing';
import { formatsFor } from '@/lib/i18n/formats';
import { MESSAGES } from '@/lib/i18n/messages';
import { toRow } from '@/lib/explorer/rows';
import { generateBatches } from '@/sandbox/data/generate';

const range = { start_date: '2025-01-01T00:00:00.000Z', end_date: '2025-12-31T23:59:59.999999Z' };

describe('what has not arrived', () => {
  it('nothing once complete; the whole range before the server names parts; else the parts it named, merged', () => {
    expect(missingSpans(range, true, null)).toEqual([]);
    expect(missingSpans(range, false, '')).toEqual([]);
    expect(missingSpans(range, false, null)).toEqual([
      { from: Date.parse(range.start_date), to: Date.parse(range.end_date) },
    ]);
    expect(missingSpans({}, false, null)).toEqual([{ from: -Infinity, to: Infinity }]);
    const spans = missingSpans(
      range,
      false,
      '2025-06-01T00:00:00Z~2025-06-30T23:59:59Z,2025-03-01T00:00:00Z~2025-03-31T00:00:00Z,2025-06-30T23:59:59Z~2025-07-02T00:00:00Z',
    );
    expect(spans).toEqual([
      { from: Date.parse('2025-03-01T00:00:00Z'), to: Date.parse('2025-03-31T00:00:00Z') },
      { from: Date.parse('2025-06-01T00:00:00Z'), to: Date.parse('2025-07-02T00:00:00Z') },
    ]);
    expect(describeSpans(spans, 'UTC')).toBe('2025-03-01 to 2025-03-31, 2025-06-01 to 2025-07-02');
    expect(missingSpans({}, false, '~2025-02-01T00:00:00Z')).toEqual([
      { from: -Infinity, to: Date.parse('2025-02-01T00:00:00Z') },
    ]);
    expect(describeSpans(missingSpans({}, false, '~2025-02-01T00:00:00Z,2025-05-01T00:00:00Z~'), 'UTC', 1)).toBe(
      'everything up to 2025-02-01 and 1 more span',
    );
  });

  it('says the spans in another language with its own days', () => {
    const t = createTranslator({ locale: 'de', messages: MESSAGES.de, namespace: 'explorer.spans' });
    const f = formatsFor('de-DE');
    const german = spanWordsOf(t, f.count, f.date);
    const spans = missingSpans(
      {},
      false,
      '~2025-02-01T00:00:00Z,2025-03-01T00:00:00Z~2025-03-31T00:00:00Z,2025-05-01T00:00:00Z~',
    );
    expect(describeSpans(spans, 'UTC', 2, german)).toBe(
      'alles bis 01.02.2025, 01.03.2025 bis 31.03.2025 und 1 weiterer Abschnitt',
    );
    expect(describeSpans([{ from: -Infinity, to: Infinity }], 'UTC', 3, german)).toBe('der gesamte Zeitraum');
  });

  it('the time chart has no value in a bucket that overlaps what has not arrived, and a break at its start', () => {
    const rows = generateBatches({
      seed: 'gaps',
      count: 2_000,
      anchorMs: Date.UTC(2026, 0, 1),
      scanners: ['a@x.example'],
      reportBaseUrl: 'https://r.example',
    }).map(toRow);
    const gap = { from: Date.UTC(2025, 5, 1), to: Date.UTC(2025, 7, 31) };
    // What the page has when that span never arrived.
    const loaded = rows.filter((r) => r.time < gap.from || r.time > gap.to);
    const window = { from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1) };
    const series = overTime(loaded, 'germination', 'UTC', window, [gap]);
    expect(series.bucket).toBe('week');
    const inGap = series.starts.flatMap((t, i) => (series.ends[i]! > gap.from && t <= gap.to ? [i] : []));
    expect(inGap.length).toBeGreaterThan(0);
    for (const i of inGap) {
      expect(series.gaps[i]).toBe(true);
      for (const c of series.crops) expect(c.values[i]).toBeNull();
    }
    const outside = series.starts.flatMap((t, i) => (t > gap.to + 40 * 86_400_000 ? [i] : []));
    expect(outside.some((i) => series.crops.some((c) => c.values[i] !== null))).toBe(true);
    // Every bucket of the window is there, so a line has a break (null) wherever a crop has no batch.
    const plain = overTime(loaded, 'germination', 'UTC', window);
    expect(plain.starts).toEqual(series.starts);
    for (const c of plain.crops) for (const i of inGap.slice(1, -1)) expect(c.values[i]).toBeNull();
  });
});
