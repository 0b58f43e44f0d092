import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, targetFor, type Batch, type Targets } from '@/lib/contract';
import { EXPORT_COLUMNS } from '@/lib/export/columns';
import { exportWords } from '@/lib/export/strings';
import { viewLines } from '@/lib/export/view-sheet';
import { RowStore } from '@/lib/explorer/row-store';
import { filterRows, sortRows, summarize, toRow, type Row } from '@/lib/explorer/rows';
import { digitsBesideTarget } from '@/lib/explorer/targets/digits-beside-target';
import { effectiveTargets } from '@/lib/explorer/targets/effective-targets';
import { missedKinds, missesOfRow, missLookup, JUDGED } from '@/lib/explorer/targets/misses';
import { targetLines } from '@/lib/explorer/targets/target-lines';
import { readState, writeState } from '@/lib/explorer/url-state';
import { sayVerdict, verdict } from '@/lib/explorer/verdict';
import { formatsFor } from '@/lib/i18n/formats';
import { MESSAGES } from '@/lib/i18n/messages';
import { generateBatches } from '@/sandbox/data/generate';

const NONE = { germination: null, usable: null, cv: null };
/** General targets of all three kinds; Tomato its own germination and a lower usable target; Basil nothing of its own. */
const TARGETS: Targets = {
  general: { germination: 90, usable: 85, cv: 30 },
  crops: {
    Tomato: { germination: 85, usable: 70, cv: null },
    Basil: NONE,
    Lettuce: { germination: null, usable: null, cv: 25.5 },
  },
};

let n = 0;
function batch(over: Partial<Batch>): Batch {
  return {
    batch_id: `b${++n}`,
    batch_name: `B ${n}`,
    batch_creation_date: `2025-03-01T10:00:${String(n % 60).padStart(2, '0')}Z`,
    crop_type: 'Basil',
    number_of_images: 4,
    total_cells_per_tray: 128,
    avg_germinated_seedlings: null,
    avg_non_germinated_seedlings: null,
    avg_germination_rate: '95.00',
    avg_usable_seedlings: null,
    avg_non_usable_cells: null,
    avg_usable_seedling_rate: '90.00',
    avg_coefficient_of_variation: '20.00',
    avg_median_seedling_size_mm2: null,
    scanned_by_email: null,
    analysis_link: null,
    comment: null,
    warnings: false,
    ...over,
  };
}
const kinds = (over: Partial<Batch>, targets = TARGETS) => missedKinds(missesOfRow(toRow(batch(over)), targets));

describe('the rule: a batch misses the targets of its own crop', () => {
  it('below the germination target, below the usable-seedling target, above the CV threshold', () => {
    expect(kinds({})).toEqual([]);
    expect(kinds({ avg_germination_rate: '89.99' })).toEqual(['germination']);
    expect(kinds({ avg_usable_seedling_rate: '84.99' })).toEqual(['usable']);
    expect(kinds({ avg_coefficient_of_variation: '30.01' })).toEqual(['cv']);
    expect(
      kinds({
        avg_germination_rate: '50.00',
        avg_usable_seedling_rate: '40.00',
        avg_coefficient_of_variation: '45.00',
      }),
    ).toEqual(['germination', 'usable', 'cv']);
  });

  it('a figure on its target meets it (a floor for rates, a ceiling for CV)', () => {
    expect(
      kinds({
        avg_germination_rate: '90.00',
        avg_usable_seedling_rate: '85.00',
        avg_coefficient_of_variation: '30.00',
      }),
    ).toEqual([]);
  });

  it('a crop’s own target wins; an empty one falls back to the general one; no crop is judged by the general ones', () => {
    // Tomato: 87 meets its own 85 (under the general 90); 75 meets its own usable 70; CV falls back to 30.
    expect(
      kinds({
        crop_type: 'Tomato',
        avg_germination_rate: '87.00',
        avg_usable_seedling_rate: '75.00',
        avg_coefficient_of_variation: '31.00',
      }),
    ).toEqual(['cv']);
    // Basil has an entry with nothing set: every target is the general one.
    expect(kinds({ crop_type: 'Basil', avg_germination_rate: '87.00', avg_usable_seedling_rate: '75.00' })).toEqual([
      'germination',
      'usable',
    ]);
    // Lettuce's own CV threshold is stricter; its rates fall back.
    expect(
      kinds({ crop_type: 'Lettuce', avg_coefficient_of_variation: '26.00', avg_usable_seedling_rate: '84.00' }),
    ).toEqual(['usable', 'cv']);
    expect(kinds({ crop_type: null, avg_germination_rate: '89.00' })).toEqual(['germination']);
    expect(kinds({ crop_type: 'Unlisted crop', avg_usable_seedling_rate: '80.00' })).toEqual(['usable']);
  });

  it('a target that is not set judges nothing, nor does a figure that is not recorded', () => {
    const onlyUsable: Targets = { general: { germination: null, usable: 85, cv: null }, crops: {} };
    expect(kinds({ avg_germination_rate: '10.00', avg_coefficient_of_variation: '99.00' }, onlyUsable)).toEqual([]);
    expect(kinds({ avg_usable_seedling_rate: '10.00' }, onlyUsable)).toEqual(['usable']);
    const nothing = { general: NONE, crops: {} };
    expect(missesOfRow(toRow(batch({ avg_germination_rate: '1.00' })), nothing)).toBe(0); // not judged at all
    const unrecorded = toRow(
      batch({ avg_germination_rate: null, avg_usable_seedling_rate: null, avg_coefficient_of_variation: null }),
    );
    expect(missesOfRow(unrecorded, TARGETS)).toBe(0);
    const cvOnly = toRow(batch({ avg_germination_rate: null, avg_usable_seedling_rate: null }));
    expect(missesOfRow(cvOnly, TARGETS) & JUDGED).not.toBe(0);
  });

  it('figures the service wrote oddly are judged by their value', () => {
    expect(kinds({ avg_germination_rate: '089.50' })).toEqual(['germination']);
    expect(kinds({ avg_coefficient_of_variation: '30.5' })).toEqual(['cv']);
  });

  it('reading the store’s columns gives the same answer as the figures, for every generated batch', () => {
    const batches = generateBatches({
      seed: 'misses',
      count: 20_000,
      anchorMs: Date.UTC(2026, 5, 1),
      scanners: ['a@x.example'],
      reportBaseUrl: 'https://r.example',
    });
    const store = new RowStore();
    const rows = batches.map((b) => store.add(b));
    const lookup = missLookup(TARGETS);
    const number = (v: string | null) => (v === null ? null : Number(v));
    let missed = 0;
    for (const r of rows) {
      const b = r.batch;
      const t = (m: 'germination' | 'usable' | 'cv') => targetFor(TARGETS, b.crop_type, m);
      const g = number(b.avg_germination_rate),
        u = number(b.avg_usable_seedling_rate),
        cv = number(b.avg_coefficient_of_variation);
      const expected = [
        ...(g !== null && t('germination') !== null && g < t('germination')! ? ['germination'] : []),
        ...(u !== null && t('usable') !== null && u < t('usable')! ? ['usable'] : []),
        ...(cv !== null && t('cv') !== null && cv > t('cv')! ? ['cv'] : []),
      ];
      expect(missedKinds(lookup(r))).toEqual(expected);
      if (expected.length) missed++;
    }
    expect(missed).toBeGreaterThan(1000);
    expect(missed).toBeLessThan(rows.length);
  });

  it('a store’s rows judged once are judged again for other targets, and rows added later are judged too', () => {
    const store = new RowStore();
    const first = [batch({ avg_germination_rate: '80.00' }), batch({})].map((b) => store.add(b));
    const lookup = missLookup(TARGETS);
    expect(first.map((r) => missedKinds(lookup(r)))).toEqual([['germination'], []]);
    const later = store.add(batch({ avg_usable_seedling_rate: '50.00' }));
    expect(missedKinds(lookup(later))).toEqual(['usable']);
    expect(missedKinds(missLookup(TARGETS)(later))).toEqual(['usable']);
    const lenient: Targets = { general: { germination: 70, usable: null, cv: null }, crops: {} };
    expect([...first, later].map((r) => missedKinds(missLookup(lenient)(r)))).toEqual([[], [], []]);
    expect(missedKinds(lookup(first[0]!))).toEqual(['germination']);
  });
});

describe('the Below target filter, card and order', () => {
  const rows = [
    batch({ avg_germination_rate: '80.00' }), // germination
    batch({ avg_usable_seedling_rate: '80.00', avg_coefficient_of_variation: '35.00' }), // usable and CV
    batch({ crop_type: 'Tomato', avg_germination_rate: '86.00', avg_usable_seedling_rate: '72.00' }), // meets its own
    batch({ avg_germination_rate: null, avg_usable_seedling_rate: null, avg_coefficient_of_variation: null }), // not judged
    batch({ avg_germination_rate: null, avg_usable_seedling_rate: null, avg_coefficient_of_variation: '31.00' }), // CV
  ].map(toRow);
  const ids = (list: readonly Row[]) => list.map((r) => r.id);
  const filter = (below: '1' | 'germination' | 'usable' | 'cv') =>
    ids(filterRows(rows, { q: '', below, targets: TARGETS }));

  it('`below=1` keeps a batch missing any target; a kind keeps those missing that one', () => {
    expect(filter('1')).toEqual(ids([rows[0]!, rows[1]!, rows[4]!]));
    expect(filter('germination')).toEqual(ids([rows[0]!]));
    expect(filter('usable')).toEqual(ids([rows[1]!]));
    expect(filter('cv')).toEqual(ids([rows[1]!, rows[4]!]));
  });

  it('the card counts each batch once, as a share of those judged by any target, and per kind', () => {
    const s = summarize(rows, TARGETS);
    expect(s).toMatchObject({
      below: 3,
      belowBy: { germination: 1, usable: 1, cv: 2 },
      judgedBy: { germination: 3, usable: 3, cv: 4 },
    });
    expect(s.belowShare).toBeCloseTo(3 / 4, 12);
    // The same sums over a store's columns as over loose rows.
    const store = new RowStore();
    expect(
      summarize(
        rows.map((r) => store.add(r.batch)),
        TARGETS,
      ),
    ).toEqual(s);
    expect(summarize(rows, { general: NONE, crops: {} })).toMatchObject({
      below: 0,
      belowShare: null,
      judgedBy: { germination: 0, usable: 0, cv: 0 },
    });
  });

  it('the Off target column sorts the most targets missed first, batches not judged last', () => {
    expect(ids(sortRows(rows, 'below', 'desc', TARGETS))).toEqual(
      ids([rows[1]!, rows[4]!, rows[0]!, rows[2]!, rows[3]!]),
    );
    expect(ids(sortRows(rows, 'below', 'asc', TARGETS))).toEqual(
      ids([rows[2]!, rows[0]!, rows[4]!, rows[1]!, rows[3]!]),
    );
  });

  it('the URL keeps `below=1` (every link made before the kinds) and each kind; anything else is no filter', () => {
    for (const value of ['1', 'germination', 'usable', 'cv'] as const) {
      const { state } = readState(new URLSearchParams(`below=${value}`));
      expect(state.below).toBe(value);
      expect(writeState(state)).toContain(`below=${value}`);
    }
    expect(readState(new URLSearchParams('below=size')).state.below).toBeUndefined();
    expect(readState(new URLSearchParams('below=2')).state.below).toBeUndefined();
  });
});

describe('digitsBesideTarget', () => {
  it('adds decimals only while the rounded figure would read on the other side of the target', () => {
    expect(digitsBesideTarget(92.48, 92.5, 'higher')).toBe(2);
    expect(digitsBesideTarget(92.45, 92.5, 'higher')).toBe(2); // 92.5 at one decimal (half away from zero)
    expect(digitsBesideTarget(29.95, 30, 'higher')).toBe(2); // 30.0 as the page rounds it, though 29.9 as toFixed does
    expect(digitsBesideTarget(89.96, 90, 'higher')).toBe(2);
    expect(digitsBesideTarget(90.04, 90, 'higher')).toBe(1); // 90.0 meets 90: no contradiction
    expect(digitsBesideTarget(92.4999, 92.5, 'higher')).toBe(4);
    expect(digitsBesideTarget(30.04, 30, 'lower')).toBe(2);
    expect(digitsBesideTarget(29.96, 30, 'lower')).toBe(1); // 30.0 is within 30
    expect(digitsBesideTarget(80, 90, 'higher')).toBe(1);
    expect(digitsBesideTarget(92.48, null, 'higher')).toBe(1);
    expect(digitsBesideTarget(89.6, 90, 'higher', 0)).toBe(1);
    expect(digitsBesideTarget(92.48, 92.5, 'higher', 0)).toBe(0); // 92 is below 92.5 too
  });

  it('the figure it gives is never on the wrong side, for every two-decimal figure around a target', () => {
    const f = formatsFor('en-US');
    for (const target of [0.5, 29.9, 30, 85, 92.5, 99.99, 1.15]) {
      for (let c = Math.round(target * 100) - 300; c <= Math.round(target * 100) + 300; c++) {
        const v = c / 100;
        for (const better of ['higher', 'lower'] as const) {
          const shown = Number(f.percent(v, digitsBesideTarget(v, target, better)).replace('%', ''));
          const misses = better === 'higher' ? v < target : v > target;
          expect(better === 'higher' ? shown < target : shown > target, `${v} vs ${target}`).toBe(misses);
        }
      }
    }
  });
});

describe('in words: the detail, the print header and the View sheet', () => {
  const say = createTranslator({ locale: 'en', messages: MESSAGES.en, namespace: 'explorer.verdict' });
  const de = createTranslator({ locale: 'de', messages: MESSAGES.de, namespace: 'explorer.verdict' });
  const uneven = toRow(batch({ crop_type: 'Lettuce', avg_coefficient_of_variation: '26.00' }));

  it('says the CV threshold verdict as the rate verdicts are said', () => {
    expect(sayVerdict(verdict(uneven, TARGETS, 'cv'), say, formatsFor('en-GB').percentUpTo)).toBe(
      'Above the Lettuce CV threshold of 25.5%',
    );
    expect(sayVerdict(verdict(uneven, TARGETS, 'cv'), de, formatsFor('de-DE').percentUpTo).replace(/\s/g, ' ')).toBe(
      'Über dem VK-Schwellenwert für Lettuce von 25,5 %',
    );
    expect(verdict(uneven, TARGETS, 'cv')).toMatchObject({ kind: 'misses', misses: true, value: 26, target: 25.5 });
    const within = toRow(batch({ crop_type: null, avg_coefficient_of_variation: '30.00' }));
    expect(sayVerdict(verdict(within, TARGETS, 'cv'), say, formatsFor('en-GB').percentUpTo)).toBe(
      'Within the general CV threshold of 30%',
    );
  });

  it('each crop’s targets in force and where each comes from, crops judged alike on one line', () => {
    expect(effectiveTargets(TARGETS, 'Tomato')).toEqual({
      germination: { value: 85, source: 'own' },
      usable: { value: 70, source: 'own' },
      cv: { value: 30, source: 'general' },
    });
    const t = createTranslator({ locale: 'en', messages: MESSAGES.en, namespace: 'print' });
    const lines = targetLines(
      {
        general: { germination: 90, usable: 85, cv: null },
        crops: { Tomato: { germination: 85, usable: null, cv: null }, Rose: NONE },
      },
      ['Basil', 'Tomato', 'Rose', '(none)'],
      t,
      formatsFor('en-GB'),
    );
    expect(lines).toEqual([
      'General: germination 90.0%, usable seedlings 85.0%, CV threshold none',
      'Basil, Rose: germination 90.0% (general), usable seedlings 85.0% (general), CV threshold none',
      'Tomato: germination 85.0% (own), usable seedlings 85.0% (general), CV threshold none',
    ]);
  });

  it('the export’s Off target column and View sheet use the filter’s and the badges’ words', () => {
    const words = exportWords(MESSAGES.de);
    const column = EXPORT_COLUMNS.find((c) => c.id === 'below')!;
    const ctx = { zone: 'UTC', targets: TARGETS, words };
    expect(column.header(ctx)).toBe('Sollwert verfehlt');
    const row = toRow(batch({ avg_germination_rate: '80.00', avg_coefficient_of_variation: '35.00' }));
    expect(column.value(row, ctx)).toBe('Keimrate, VK');
    expect(column.value(toRow(batch({})), ctx)).toBeNull();
    const view = (below?: '1' | 'usable') =>
      Object.fromEntries(
        viewLines({
          organisation: 'Greenfield Seeds',
          zone: 'UTC',
          targets: DEFAULT_TARGETS,
          targetsText: '',
          words,
          below,
          columns: EXPORT_COLUMNS,
          batches: 1,
          made: 0,
          incomplete: null,
        }),
      );
    expect(view()['Unter Sollwert']).toBe('Nein');
    expect(view('1')['Unter Sollwert']).toBe('Ja: beliebiger Sollwert');
    expect(view('usable')['Unter Sollwert']).toBe('Ja: nutzbare Sämlinge');
  });
});
