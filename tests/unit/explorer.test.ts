import { describe, expect, it } from 'vitest';
import { histogram, overTime, perCrop } from '@/lib/explorer/aggregate';
import { formatDay, rangeToQuery } from '@/lib/explorer/date-range';
import type { Batch } from '@/lib/contract';
import { filterRows, sortRows, summarize, toRow, type Row, type RowFilter } from '@/lib/explorer/rows';
import { readState, writeState } from '@/lib/explorer/url-state';
import { safeNextPath } from '@/lib/safe-next';
import { generateBatches } from '@/sandbox/data/generate';
import { DEFAULT_TARGETS, type Targets } from '@/lib/contract/targets';

/** One general germination target, no crop of its own. */
const only = (germination: number): Targets => ({ general: { germination, usable: null, cv: null }, crops: {} });

const rows = generateBatches({
  seed: 'explorer',
  count: 20_000,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
}).map(toRow);
const idsOf = (list: readonly Row[]) => list.map((r) => r.batch.batch_id);

describe('date range', () => {
  it('turns UTC calendar days into whole UTC days', () => {
    expect(rangeToQuery('2025-01-01', '2025-01-31', 'UTC')).toEqual({
      start_date: '2025-01-01T00:00:00.000Z',
      end_date: '2025-01-31T23:59:59.999999Z',
    });
    expect(rangeToQuery(undefined, undefined, 'UTC')).toEqual({ start_date: undefined, end_date: undefined });
  });

  it('turns calendar days into whole days of any zone, whatever zone this process runs in', () => {
    expect(rangeToQuery('2026-10-21', '2026-10-21', 'Europe/Amsterdam')).toEqual({
      start_date: '2026-10-20T22:00:00.000Z',
      end_date: '2026-10-21T21:59:59.999999Z',
    });
    expect(rangeToQuery('2026-10-21', '2026-10-21', 'America/Los_Angeles')).toEqual({
      start_date: '2026-10-21T07:00:00.000Z',
      end_date: '2026-10-22T06:59:59.999999Z',
    });
    // A 25-hour day (Amsterdam falls back) and the year's end in a half-hour zone.
    expect(rangeToQuery('2025-10-26', '2025-10-26', 'Europe/Amsterdam')).toEqual({
      start_date: '2025-10-25T22:00:00.000Z',
      end_date: '2025-10-26T22:59:59.999999Z',
    });
    expect(rangeToQuery('2025-12-31', undefined, 'Asia/Kolkata').start_date).toBe('2025-12-30T18:30:00.000Z');
  });
});

describe('URL state', () => {
  const viewer = Intl.DateTimeFormat().resolvedOptions().timeZone;

  it('round-trips and leaves defaults out, but always names the range and the zone', () => {
    const { state } = readState(
      new URLSearchParams('from=2025-01-01&tz=Asia/Tokyo&q=tom&warn=1&sort=batch_name&dir=asc&target=85'),
    );
    expect(writeState(state)).toBe(
      'from=2025-01-01&to=now&tz=Asia/Tokyo&q=tom&warn=1&sort=batch_name&dir=asc&target=85',
    );
    expect(writeState(readState(new URLSearchParams('')).state)).toBe(`from=all&to=now&tz=${viewer}`);
    expect(writeState(readState(new URLSearchParams('to=2025-03-01&from=now-90d&tz=UTC')).state)).toBe(
      'from=now-90d&to=2025-03-01&tz=UTC',
    );
  });

  it('reads the zone: an IANA name (canonical), UTC for the old utc, the viewer zone for local, none or junk', () => {
    const tz = (query: string) => readState(new URLSearchParams(query)).state.tz;
    expect(tz('tz=Europe/Amsterdam')).toBe('Europe/Amsterdam');
    expect(tz('tz=america/los_angeles')).toBe('America/Los_Angeles');
    expect(tz('tz=utc')).toBe('UTC');
    expect(tz('tz=UTC')).toBe('UTC');
    for (const q of ['tz=local', '', 'tz=Mars/Olympus', 'tz=']) expect(tz(q), q).toBe(viewer);
  });

  it('reports an impossible day or an unknown rolling end, and ignores junk in the other fields', () => {
    expect(readState(new URLSearchParams('from=2025-02-30')).dateError).toEqual({
      kind: 'invalid',
      field: 'from',
      value: '2025-02-30',
    });
    expect(readState(new URLSearchParams('from=now-7w&to=now')).dateError).toEqual({
      kind: 'invalid',
      field: 'from',
      value: 'now-7w',
    });
    expect(readState(new URLSearchParams('from=now-7d&to=now-1d')).dateError).toEqual({
      kind: 'invalid',
      field: 'to',
      value: 'now-1d',
    });
    // Reversed days are the resolver's to say (a rolling end's day depends on today): read as they are.
    expect(readState(new URLSearchParams('from=2025-03-01&to=2025-02-01')).dateError).toBeNull();
    const both = readState(new URLSearchParams('from=x&to=y&q=tom'));
    expect(both.dateError).toEqual({ kind: 'invalid', field: 'from', value: 'x' });
    expect([both.state.from, both.state.to, both.state.q]).toEqual(['all', 'now', 'tom']);
    const { state, dateError } = readState(new URLSearchParams('sort=evil&dir=up&target=200&tz=mars'));
    expect(dateError).toBeNull();
    expect(state).toMatchObject({ sort: 'batch_creation_date', dir: 'desc', target: undefined, tz: viewer });
  });
});

describe('rows', () => {
  it('weights means by cells per tray, not a mean of means', () => {
    const make = (rate: string, cells: number) =>
      toRow({
        ...rows[0]!.batch,
        avg_germination_rate: rate,
        avg_usable_seedling_rate: rate,
        total_cells_per_tray: cells,
        warnings: false,
      });
    const s = summarize([make('100.00', 288), make('50.00', 72)], DEFAULT_TARGETS);
    expect(s.germination).toBeCloseTo((100 * 288 + 50 * 72) / 360, 6);
    expect(s.warningShare).toBe(0);
  });

  it('sorts with nulls last both ways and filters by every control', () => {
    const asc = sortRows(rows, 'avg_germination_rate', 'asc', DEFAULT_TARGETS);
    const desc = sortRows(rows, 'avg_germination_rate', 'desc', DEFAULT_TARGETS);
    expect(asc.at(-1)!.germination).toBeNull();
    expect(desc.at(-1)!.germination).toBeNull();
    expect(asc[0]!.germination!).toBeLessThanOrEqual(asc[1]!.germination!);
    const below = filterRows(rows, { q: '', targets: only(80), below: '1' });
    expect(below.every((r) => r.germination !== null && r.germination < 80)).toBe(true);
    expect(
      filterRows(rows, { q: 'BASIL', targets: only(90) }).every((r) =>
        [r.name, r.crop, r.scanner, r.field('comment')].join('\n').toLowerCase().includes('basil'),
      ),
    ).toBe(true);
  });

  it('sorts the whole list: every value in order, every null at the end, the same rows', () => {
    // Read from the batch itself, not from the parsed Row, so the test does not share toRow's parsing.
    const rate = (r: Row) => (r.batch.avg_germination_rate === null ? null : Number(r.batch.avg_germination_rate));
    const nulls = rows.filter((r) => rate(r) === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(nulls).toBeLessThan(rows.length - 1);
    for (const dir of ['asc', 'desc'] as const) {
      const sorted = sortRows(rows, 'avg_germination_rate', dir, DEFAULT_TARGETS);
      expect(idsOf(sorted).sort(), dir).toEqual(idsOf(rows).sort());
      const values = sorted.map(rate);
      expect(values.indexOf(null), `${dir}: the first null`).toBe(values.length - nulls);
      expect(
        values.slice(values.length - nulls).every((v) => v === null),
        dir,
      ).toBe(true);
      const known = values.slice(0, values.length - nulls) as number[];
      const outOfOrder = known.findIndex((v, i) => i > 0 && (dir === 'asc' ? known[i - 1]! > v : known[i - 1]! < v));
      expect(outOfOrder, `${dir}: the first value out of order`).toBe(-1);
      expect(known[0], dir).not.toBe(known.at(-1));
    }
  });

  it('filters exactly the rows a plain reading of each control picks', () => {
    const rate = (b: Batch) => (b.avg_germination_rate === null ? null : Number(b.avg_germination_rate));
    const mentions = (b: Batch, word: string) =>
      [b.batch_name, b.crop_type, b.comment, b.scanned_by_email].some(
        (text) => text !== null && text.toLowerCase().includes(word),
      );
    const cases: [RowFilter, (b: Batch) => boolean][] = [
      [{ q: '', targets: only(80), below: '1' }, (b) => rate(b) !== null && rate(b)! < 80],
      [{ q: 'BASIL', targets: only(90) }, (b) => mentions(b, 'basil')],
      [{ q: '  Tomato ', targets: only(90) }, (b) => mentions(b, 'tomato')],
      [{ q: '', targets: only(90), crop: 'Tomato' }, (b) => b.crop_type === 'Tomato'],
      [{ q: '', targets: only(90), crop: '(none)' }, (b) => b.crop_type === null],
      [{ q: '', targets: only(90), warn: '1' }, (b) => b.warnings],
      [
        { q: 'a@x', targets: only(85), crop: 'Tomato', warn: '1', below: '1' },
        (b) => mentions(b, 'a@x') && b.crop_type === 'Tomato' && b.warnings && rate(b) !== null && rate(b)! < 85,
      ],
    ];
    for (const [filter, keep] of cases) {
      const expected = rows.filter((r) => keep(r.batch));
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(expected.length, JSON.stringify(filter)).toBeLessThan(rows.length);
      expect(idsOf(filterRows(rows, filter)), JSON.stringify(filter)).toEqual(idsOf(expected));
    }
  });
});

describe('chart aggregation', () => {
  it('keeps every line readable: at most 78 buckets a line, at most 40 bins, whatever the range', () => {
    const series = overTime(rows, 'germination', 'UTC', null);
    expect(series.starts.length).toBeLessThanOrEqual(78);
    for (const c of series.crops) expect(c.values).toHaveLength(series.starts.length);
    expect(histogram(rows, 'germination', DEFAULT_TARGETS).bins.length).toBeLessThanOrEqual(40);
    for (const m of ['cv', 'size'] as const)
      expect(histogram(rows, m, DEFAULT_TARGETS).bins.length).toBeLessThanOrEqual(41);
    expect(perCrop(rows, 'germination', DEFAULT_TARGETS).map((c) => c.crop)).toContain('Tomato');
  });

  it('day buckets begin at midnight of the zone asked for, not of this process', () => {
    const recent = rows.filter((r) => r.time > Date.UTC(2026, 4, 20));
    for (const zone of ['Asia/Kolkata', 'America/Los_Angeles']) {
      const series = overTime(recent, 'germination', zone, null);
      expect(series.bucket).toBe('day');
      for (const t of series.starts)
        expect(rangeToQuery(formatDay(t, zone), undefined, zone).start_date).toBe(new Date(t).toISOString());
    }
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
