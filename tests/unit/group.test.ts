import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, type Batch } from '@/lib/contract';
import { readCsv } from '../helpers/csv';
import { exportFile } from '@/lib/explorer/export-csv';
import { median } from '@/lib/explorer/aggregate';
import { groupRows, groupsToCsv, nextGroupDir, sortGroups } from '@/lib/explorer/group';
import { compareCreation, summarize, toRow, type Row } from '@/lib/explorer/rows';
import { speech } from '../helpers/speech';

const EN = speech();

function batch(id: string, at: string, over: Partial<Batch>): Batch {
  return {
    batch_id: id,
    batch_name: id,
    batch_creation_date: at,
    crop_type: 'Lettuce',
    number_of_images: 1,
    total_cells_per_tray: 100,
    avg_germinated_seedlings: null,
    avg_non_germinated_seedlings: null,
    avg_germination_rate: '90.00',
    avg_usable_seedlings: null,
    avg_non_usable_cells: null,
    avg_usable_seedling_rate: '80.00',
    avg_coefficient_of_variation: '10.00',
    avg_median_seedling_size_mm2: null,
    scanned_by_email: 'a@x.example',
    analysis_link: null,
    comment: null,
    warnings: false,
    ...over,
  };
}

// Europe/Amsterdam: Sunday 30 March 2025 is a 23-hour day (the last of its week); Monday 31 March begins the next.
const rows: Row[] = [
  batch('a', '2025-03-24T08:00:00Z', {
    total_cells_per_tray: 200,
    avg_germination_rate: '80.00',
    avg_coefficient_of_variation: '12.00',
  }),
  batch('b', '2025-03-30T21:59:00Z', {
    total_cells_per_tray: 100,
    avg_germination_rate: '95.00',
    warnings: true,
    avg_coefficient_of_variation: '8.00',
  }),
  batch('c', '2025-03-30T22:01:00Z', {
    total_cells_per_tray: null,
    avg_germination_rate: '92.00',
    scanned_by_email: null,
  }),
  batch('d', '2025-04-01T09:00:00Z', {
    crop_type: null,
    total_cells_per_tray: 50,
    avg_germination_rate: null,
    avg_usable_seedling_rate: '60.00',
  }),
  batch('e', '2025-04-02T09:00:00Z', {
    crop_type: 'Tomato',
    total_cells_per_tray: 300,
    avg_germination_rate: '85.00',
    avg_coefficient_of_variation: null,
  }),
]
  .map(toRow)
  .sort(compareCreation);
const ZONE = 'Europe/Amsterdam';
const byKey = (groups: ReturnType<typeof groupRows>) => Object.fromEntries(groups.map((g) => [g.key, g]));

describe('groupRows', () => {
  it('crop: weighted by cells per tray, an unknown tray weighing the mean known tray of its group', () => {
    const g = byKey(groupRows(rows, 'crop', ZONE, DEFAULT_TARGETS, EN));
    expect(Object.keys(g).sort()).toEqual(['(none)', 'Lettuce', 'Tomato']);
    const lettuce = g.Lettuce!;
    expect(lettuce.count).toBe(3);
    // c has no tray size: it weighs (200 + 100) / 2 = 150. (200·80 + 100·95 + 150·92) / 450 = 39,300 / 450.
    expect(lettuce.germination).toBeCloseTo(39_300 / 450, 10);
    expect(lettuce.usable).toBeCloseTo(80, 10);
    // Below 90 %: a only, of three judged.
    expect(lettuce.below).toBe(1);
    expect(lettuce.belowShare).toBeCloseTo(1 / 3, 10);
    expect(lettuce.warningShare).toBeCloseTo(1 / 3, 10);
    expect(lettuce.cv).toBe(10); // median of 8, 10, 12
    expect(lettuce.drill).toEqual({ crop: 'Lettuce' });
    // No crop: no germination rate, so nothing to judge (share null, not 0 %).
    expect(g['(none)']).toMatchObject({
      label: 'No crop recorded',
      count: 1,
      germination: null,
      usable: 60,
      below: 0,
      belowShare: null,
      drill: { crop: '(none)' },
    });
    expect(g.Tomato).toMatchObject({ germination: 85, below: 1, belowShare: 1, cv: null });
  });

  it("a group's figures are the summary cards' figures for the same rows", () => {
    for (const grouping of ['crop', 'week', 'month', 'scanner', 'crop-week'] as const) {
      for (const group of groupRows(rows, grouping, ZONE, DEFAULT_TARGETS, EN)) {
        const same = rows.filter((r) => groupRows([r], grouping, ZONE, DEFAULT_TARGETS, EN)[0]!.key === group.key);
        const { key: _k, label: _l, drill: _d, cv: _c, ...figures } = group;
        expect(figures).toEqual(summarize(same, DEFAULT_TARGETS));
      }
    }
  });

  it('week: Monday to Sunday in the zone, across a DST change; drills down to those days', () => {
    const g = groupRows(rows, 'week', ZONE, DEFAULT_TARGETS, EN);
    expect(g.map((x) => [x.key, x.count, x.drill.days, x.label])).toEqual([
      // b at 23:59 Sunday local (21:59Z, summer time) is still week 24–30 March; c at 00:01 Monday is not.
      ['2025-03-24', 2, '2025-03-24..2025-03-30', 'Week of 24 Mar 2025'],
      ['2025-03-31', 3, '2025-03-31..2025-04-06', 'Week of 31 Mar 2025'],
    ]);
    // In a German browser: German words, German dates; the drill-down (the URL) stays the same.
    expect(
      groupRows(rows, 'week', ZONE, DEFAULT_TARGETS, speech('de', 'de-DE')).map((x) => [x.label, x.drill.days]),
    ).toEqual([
      ['Woche vom 24.03.2025', '2025-03-24..2025-03-30'],
      ['Woche vom 31.03.2025', '2025-03-31..2025-04-06'],
    ]);
    // In UTC both b and c fall on Sunday 30 March.
    expect(groupRows(rows, 'week', 'UTC', DEFAULT_TARGETS, EN).map((x) => x.count)).toEqual([3, 2]);
  });

  it('month, scanner and crop and week', () => {
    expect(groupRows(rows, 'month', ZONE, DEFAULT_TARGETS, EN).map((x) => [x.label, x.count, x.drill.days])).toEqual([
      // c, at 00:01 on Monday 31 March local time, is still March.
      ['March 2025', 3, '2025-03-01..2025-03-31'],
      ['April 2025', 2, '2025-04-01..2025-04-30'],
    ]);
    const scanners = byKey(groupRows(rows, 'scanner', ZONE, DEFAULT_TARGETS, EN));
    expect(scanners['(none)']).toMatchObject({ label: 'No scanner recorded', count: 1, drill: { scanner: '(none)' } });
    expect(scanners['a@x.example']!.count).toBe(4);
    const cw = groupRows(rows, 'crop-week', ZONE, DEFAULT_TARGETS, EN).map((x) => [x.label, x.count, x.drill]);
    expect(cw).toContainEqual([
      'Lettuce · Week of 31 Mar 2025',
      1,
      { crop: 'Lettuce', days: '2025-03-31..2025-04-06' },
    ]);
    expect(cw).toHaveLength(4);
  });
});

describe('sortGroups', () => {
  const groups = groupRows(rows, 'crop', ZONE, DEFAULT_TARGETS, EN);
  it('by a figure, empty values last either way, ties by key; by key A→Z', () => {
    expect(sortGroups(groups, 'germination', 'desc').map((g) => g.key)).toEqual(['Lettuce', 'Tomato', '(none)']);
    expect(sortGroups(groups, 'germination', 'asc').map((g) => g.key)).toEqual(['Tomato', 'Lettuce', '(none)']);
    expect(sortGroups(groups, 'count', 'desc').map((g) => g.key)).toEqual(['Lettuce', 'Tomato', '(none)']);
    expect(sortGroups(groups, 'key', 'asc').map((g) => g.key)).toEqual(['Lettuce', 'Tomato', '(none)']);
    expect(nextGroupDir('key', 'count', 'desc')).toBe('asc');
    expect(nextGroupDir('count', 'count', 'desc')).toBe('asc');
    expect(nextGroupDir('cv', 'count', 'asc')).toBe('desc');
  });
});

describe('median', () => {
  it('middle value, or the mean of the two middle ones', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('groupsToCsv', () => {
  it('reads back as the table, in its order', () => {
    const text = groupsToCsv(sortGroups(groupRows(rows, 'crop', ZONE, DEFAULT_TARGETS, EN), 'key', 'asc'), 'crop');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const csv = readCsv(text.slice(1));
    expect(csv[0]![0]).toBe('Crop');
    expect(csv.slice(1).map((r) => r.slice(0, 2))).toEqual([
      ['Lettuce', '3'],
      ['Tomato', '1'],
      ['No crop recorded', '1'],
    ]);
    // Then the batches below each kind of target: only germination has one (empty: no batch judged by it).
    expect(csv[0]!.slice(-3)).toEqual(['below_germination_target', 'below_usable_target', 'below_cv_target']);
    expect(csv[1]).toEqual([
      'Lettuce',
      '3',
      String(Number((39_300 / 450).toFixed(2))),
      '80',
      '10',
      '1',
      '33.33',
      '33.33',
      '1',
      '',
      '',
    ]);
  });

  it('counts a batch missing any of its targets once, and under each kind it misses', () => {
    // Lettuce: a misses germination (80 < 90) and CV (12 > 11); b and c miss usable (80 < 85); d has no crop
    // and no germination rate (usable 60 < 85, CV 10 within 11); Tomato's own usable target of 70 is met, CV unrecorded.
    const targets = {
      general: { germination: 90, usable: 85, cv: 11 },
      crops: {
        Lettuce: { germination: null, usable: null, cv: null },
        Tomato: { germination: 80, usable: 70, cv: null },
      },
    };
    const groups = sortGroups(groupRows(rows, 'crop', ZONE, targets, EN), 'key', 'asc');
    const csv = readCsv(groupsToCsv(groups, 'crop').slice(1));
    expect(csv.slice(1).map((r) => [r[0], r[5], r[6], ...r.slice(-3)])).toEqual([
      ['Lettuce', '3', '100', '1', '3', '1'],
      ['Tomato', '0', '0', '0', '0', ''],
      ['No crop recorded', '1', '100', '', '1', '0'],
    ]);
  });
});

describe('groupsToCsv for a reader whose decimal mark is a comma', () => {
  it('separates by semicolons, writes decimal commas and puts the INCOMPLETE note first', () => {
    const text = groupsToCsv(
      sortGroups(groupRows(rows, 'crop', ZONE, DEFAULT_TARGETS, EN), 'key', 'asc'),
      'crop',
      { separator: ';', decimal: ',' },
      'INCOMPLETE: x',
    );
    expect(text.startsWith('\uFEFFINCOMPLETE: x\r\n')).toBe(true);
    const csv = readCsv(text.slice('\uFEFFINCOMPLETE: x\r\n'.length), ';');
    expect(csv[1]).toEqual([
      'Lettuce',
      '3',
      String(Number((39_300 / 450).toFixed(2))).replace('.', ','),
      '80',
      '10',
      '1',
      '33,33',
      '33,33',
      '1',
      '',
      '',
    ]);
  });
});

describe('exportFile', () => {
  it('an incomplete view says so in its name and its first line, naming what is missing', () => {
    const whole = exportFile('batches-2025-01-01-to-2025-01-31-by-crop.csv', 'a\r\n', {
      complete: true,
      loaded: 3,
      missing: [],
      zone: 'UTC',
    });
    expect(whole).toEqual({ name: 'batches-2025-01-01-to-2025-01-31-by-crop.csv', text: 'a\r\n' });
    const missing = [{ from: Date.parse('2025-01-20T00:00:00Z'), to: Date.parse('2025-01-31T23:59:59Z') }];
    const part = exportFile('batches-2025-01-01-to-2025-01-31-by-crop.csv', 'a\r\n', {
      complete: false,
      loaded: 3,
      missing,
      zone: 'UTC',
    });
    expect(part.name).toBe('batches-2025-01-01-to-2025-01-31-by-crop-INCOMPLETE.csv');
    expect(readCsv(part.text)).toEqual([['INCOMPLETE: 3 batches loaded; not loaded: 2025-01-20 to 2025-01-31'], ['a']]);
  });
});
