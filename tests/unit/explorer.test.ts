import { describe, expect, it } from 'vitest';
import { germinationHistogram, germinationOverTime, MAX_POINTS, perCrop } from '@/lib/explorer/aggregate';
import { matchingPreset, presetRange, rangeToQuery } from '@/lib/explorer/date-range';
import { filterRows, sortRows, summarize, toRow } from '@/lib/explorer/rows';
import { readState, writeState } from '@/lib/explorer/url-state';
import { safeNextPath } from '@/lib/safe-next';
import { generateBatches } from '@/sandbox/data/generate';

const rows = generateBatches({ seed: 'explorer', count: 20_000, anchorMs: Date.UTC(2026, 5, 1), scanners: ['a@x.example'], reportBaseUrl: 'https://r.example' }).map(toRow);

describe('date range', () => {
  it('turns UTC calendar days into whole UTC days', () => {
    expect(rangeToQuery('2025-01-01', '2025-01-31', 'utc')).toEqual({ start_date: '2025-01-01T00:00:00.000Z', end_date: '2025-01-31T23:59:59.999999Z' });
    expect(rangeToQuery(undefined, undefined, 'utc')).toEqual({ start_date: undefined, end_date: undefined });
  });

  it('presets count back from today in the zone', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    expect(presetRange('7d', 'utc', now)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(presetRange('ytd', 'utc', now)).toEqual({ from: '2026-01-01', to: '2026-11-22' });
    expect(presetRange('all', 'utc', now)).toEqual({});
    expect(matchingPreset('2026-11-16', '2026-11-22', 'utc', now)).toBe('7d');
  });
});

describe('URL state', () => {
  it('round-trips and leaves defaults out', () => {
    const { state } = readState(new URLSearchParams('from=2025-01-01&q=tom&warn=1&sort=batch_name&dir=asc&target=85'));
    expect(writeState(state)).toBe('from=2025-01-01&q=tom&warn=1&sort=batch_name&dir=asc&target=85');
    expect(writeState(readState(new URLSearchParams('')).state)).toBe('');
  });

  it('reports an impossible or reversed date, and ignores junk in the other fields', () => {
    expect(readState(new URLSearchParams('from=2025-02-30')).dateError).toMatch(/From date "2025-02-30"/);
    expect(readState(new URLSearchParams('from=2025-03-01&to=2025-02-01')).dateError).toMatch(/after/);
    const both = readState(new URLSearchParams('from=x&to=y&q=tom'));
    expect(both.dateError).toMatch(/From date "x"/);
    expect([both.state.from, both.state.to, both.state.q]).toEqual([undefined, undefined, 'tom']);
    const { state, dateError } = readState(new URLSearchParams('sort=evil&dir=up&target=200&tz=mars'));
    expect(dateError).toBeNull();
    expect(state).toMatchObject({ sort: 'batch_creation_date', dir: 'desc', target: 90, tz: 'local' });
  });
});

describe('rows', () => {
  it('weights means by cells per tray, not a mean of means', () => {
    const make = (rate: string, cells: number) => toRow({ ...rows[0]!.batch, avg_germination_rate: rate, avg_usable_seedling_rate: rate, total_cells_per_tray: cells, warnings: false });
    const s = summarize([make('100.00', 288), make('50.00', 72)]);
    expect(s.germination).toBeCloseTo((100 * 288 + 50 * 72) / 360, 6);
    expect(s.warningShare).toBe(0);
  });

  it('sorts with nulls last both ways and filters by every control', () => {
    const asc = sortRows(rows, 'avg_germination_rate', 'asc');
    const desc = sortRows(rows, 'avg_germination_rate', 'desc');
    expect(asc.at(-1)!.germination).toBeNull();
    expect(desc.at(-1)!.germination).toBeNull();
    expect(asc[0]!.germination!).toBeLessThanOrEqual(asc[1]!.germination!);
    const below = filterRows(rows, { q: '', target: 80, below: '1' });
    expect(below.every((r) => r.germination !== null && r.germination < 80)).toBe(true);
    expect(filterRows(rows, { q: 'BASIL', target: 90 }).every((r) => r.haystack.includes('basil'))).toBe(true);
  });
});

describe('chart aggregation', () => {
  it('never draws more than about 1,000 points, however many batches', () => {
    const series = germinationOverTime(rows, 'utc');
    expect(series.points.length * series.crops.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(germinationHistogram(rows).length).toBeLessThanOrEqual(40);
    expect(perCrop(rows).map((c) => c.crop)).toContain('Tomato');
  });
});

describe('safe next path', () => {
  it.each([
    ['/batches?from=2025-01-01', '/batches?from=2025-01-01'],
    ['//evil.example/x', '/batches'],
    ['https://evil.example', '/batches'],
    ['/\\evil.example', '/batches'],
    ['/.//evil.example', '/batches'],
    ['/..//evil.example/x', '/batches'],
    ['/%2e//evil.example', '/batches'],
    ['javascript:alert(1)', '/batches'],
    [undefined, '/batches'],
  ])('%s -> %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});
