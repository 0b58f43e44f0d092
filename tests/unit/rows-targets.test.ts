import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, targetFor, type Targets } from '@/lib/contract/targets';
import {
  filterRows,
  nextSortDir,
  searchWords,
  sortRows,
  summarize,
  toRow,
  type Row,
  type RowFilter,
} from '@/lib/explorer/rows';
import { readState, writeState } from '@/lib/explorer/url-state';
import { sayVerdict, verdict, type Verdict } from '@/lib/explorer/verdict';
import { formatsFor } from '@/lib/i18n/formats';
import { MESSAGES } from '@/lib/i18n/messages';
import { generateBatches } from '@/sandbox/data/generate';

const rows = generateBatches({
  seed: 'targets',
  count: 20_000,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
}).map(toRow);
const idsOf = (list: readonly Row[]) => list.map((r) => r.batch.batch_id);
const none: RowFilter = { q: '', targets: DEFAULT_TARGETS };
/** Lettuce and Tomato judged by their own targets, Basil falls back to the general one; Petunia has only a usable target. */
const TARGETS: Targets = {
  general: { germination: 90, usable: null, cv: null },
  crops: {
    Lettuce: { germination: 96, usable: null, cv: null },
    Tomato: { germination: 85, usable: 80, cv: null },
    Basil: { germination: null, usable: 70, cv: null },
  },
};
/** Read from the batch itself, not from the parsed Row, so the tests do not share toRow's parsing. */
const rate = (r: Row) => (r.batch.avg_germination_rate === null ? null : Number(r.batch.avg_germination_rate));

describe('search', () => {
  it('matches every word in any order, whatever the case and spacing', () => {
    expect(searchWords('  Petunia   GH1 petunia ')).toEqual(['petunia', 'gh1']);
    const petunia = toRow({
      ...rows[0]!.batch,
      batch_name: 'Petunia Surfinia · GH1 · wk47',
      comment: null,
      crop_type: 'Petunia',
      scanned_by_email: null,
    });
    for (const q of ['petunia gh1', 'gh1 petunia', 'WK47 surfinia', 'petunia'])
      expect(filterRows([petunia], { ...none, q }), q).toHaveLength(1);
    for (const q of ['petunia gh2', 'tomato gh1']) expect(filterRows([petunia], { ...none, q }), q).toHaveLength(0);
  });

  it('keeps exactly the rows whose text holds every word', () => {
    const text = (r: Row) =>
      [r.batch.batch_name, r.batch.crop_type, r.batch.comment, r.batch.scanned_by_email]
        .filter((t) => t !== null)
        .join(' ')
        .toLowerCase();
    for (const q of ['gh1 tomato', 'tomato gh1', 'a@x basil', 'bench misting']) {
      const words = q.split(' ');
      const expected = rows.filter((r) => words.every((w) => text(r).includes(w)));
      expect(expected.length, q).toBeGreaterThan(0);
      expect(expected.length, q).toBeLessThan(rows.length);
      expect(idsOf(filterRows(rows, { ...none, q })), q).toEqual(idsOf(expected));
    }
  });
});

describe('per-crop targets', () => {
  it('"below" judges each row by its own crop target; no rate or no target is not below', () => {
    const below = filterRows(rows, { ...none, below: 'germination', targets: TARGETS });
    const expected = rows.filter((r) => {
      const t = targetFor(TARGETS, r.batch.crop_type, 'germination');
      return rate(r) !== null && t !== null && rate(r)! < t;
    });
    expect(idsOf(below)).toEqual(idsOf(expected));
    // Lettuce at 93 is below its own 96, Tomato at 88 is not below its own 85.
    expect(below.some((r) => r.batch.crop_type === 'Lettuce' && rate(r)! >= 90)).toBe(true);
    expect(below.some((r) => r.batch.crop_type === 'Tomato' && rate(r)! >= 85)).toBe(false);
    // No target anywhere: nothing is below.
    const noTarget: Targets = {
      general: { germination: null, usable: null, cv: null },
      crops: { Lettuce: { germination: 96, usable: null, cv: null } },
    };
    expect(
      filterRows(rows, { ...none, below: '1', targets: noTarget }).every((r) => r.batch.crop_type === 'Lettuce'),
    ).toBe(true);
    // Any target: the germination misses, and the usable-seedling misses of Tomato (own 80) and Basil (own 70).
    const usable = (r: Row) =>
      r.batch.avg_usable_seedling_rate === null ? null : Number(r.batch.avg_usable_seedling_rate);
    const anyMiss = rows.filter((r) => {
      const u = targetFor(TARGETS, r.batch.crop_type, 'usable');
      return expected.includes(r) || (usable(r) !== null && u !== null && usable(r)! < u);
    });
    expect(anyMiss.length).toBeGreaterThan(expected.length);
    expect(idsOf(filterRows(rows, { ...none, below: '1', targets: TARGETS }))).toEqual(idsOf(anyMiss));
  });

  it('summarize counts rows below their crop target, as a share of the rows that can be judged', () => {
    const s = summarize(rows, DEFAULT_TARGETS);
    const judged = rows.filter(
      (r) => rate(r) !== null && targetFor(DEFAULT_TARGETS, r.batch.crop_type, 'germination') !== null,
    );
    expect(s.below).toBe(filterRows(rows, { ...none, below: '1', targets: DEFAULT_TARGETS }).length);
    expect(judged.length).toBeLessThan(rows.length); // some rows have no rate: the denominator differs from the count
    expect(s.belowShare).toBeCloseTo(s.below / judged.length, 12);
    const nothing = summarize(rows, { general: { germination: null, usable: null, cv: null }, crops: {} });
    expect([nothing.below, nothing.belowShare]).toEqual([0, null]);
    expect(summarize([], TARGETS)).toMatchObject({ below: 0, belowShare: null });
  });

  it('sorts by the target each row is judged against, nulls last both ways, ties in the given order', () => {
    const noGeneral: Targets = { ...TARGETS, general: { germination: null, usable: null, cv: null } };
    for (const dir of ['asc', 'desc'] as const) {
      const sorted = sortRows(rows, 'target', dir, noGeneral);
      expect(idsOf(sorted).sort()).toEqual(idsOf(rows).sort());
      const keys = sorted.map((r) => targetFor(noGeneral, r.batch.crop_type, 'germination'));
      const firstNull = keys.indexOf(null);
      expect(firstNull).toBeGreaterThan(0);
      expect(keys.slice(firstNull).every((k) => k === null)).toBe(true);
      const known = keys.slice(0, firstNull) as number[];
      expect(known.every((k, i) => i === 0 || (dir === 'asc' ? known[i - 1]! <= k : known[i - 1]! >= k))).toBe(true);
      const position = new Map(rows.map((r, i) => [r, i]));
      expect(
        sorted.every((r, i) => i === 0 || keys[i - 1] !== keys[i] || position.get(sorted[i - 1]!)! < position.get(r)!),
      ).toBe(true);
    }
  });

  it('"target" is a sort field the URL keeps', () => {
    expect(writeState(readState(new URLSearchParams('sort=target&dir=asc')).state)).toMatch(
      /(^|&)sort=target&dir=asc(&|$)/,
    );
  });
});

describe('sort direction on the first click', () => {
  it('is A→Z for text columns and largest first for numbers and dates; a second click reverses', () => {
    expect(nextSortDir('batch_name', 'batch_creation_date', 'desc')).toBe('asc');
    expect(nextSortDir('crop_type', 'batch_name', 'asc')).toBe('asc');
    expect(nextSortDir('avg_germination_rate', 'batch_name', 'asc')).toBe('desc');
    expect(nextSortDir('target', 'batch_name', 'asc')).toBe('desc');
    expect(nextSortDir('batch_name', 'batch_name', 'asc')).toBe('desc');
    expect(nextSortDir('avg_germination_rate', 'avg_germination_rate', 'desc')).toBe('asc');
  });
});

describe('the verdict in the detail', () => {
  const make = (crop: string | null, germination: string | null) =>
    toRow({ ...rows[0]!.batch, crop_type: crop, avg_germination_rate: germination });
  const say = createTranslator({ locale: 'en', messages: MESSAGES.en, namespace: 'explorer.verdict' });
  const text = (v: Verdict) => sayVerdict(v, say, formatsFor('en-GB').percentUpTo);
  it('names the crop, the target (a percent as the table writes one) and the direction', () => {
    expect(text(verdict(make('Lettuce', '75.85'), TARGETS, 'germination'))).toBe(
      'Below the Lettuce germination target of 96%',
    );
    expect(verdict(make('Tomato', '85.00'), TARGETS, 'germination')).toMatchObject({ kind: 'meets', misses: false });
    expect(text(verdict(make('Tomato', '85.00'), TARGETS, 'germination'))).toBe(
      'Meets the Tomato germination target of 85%',
    );
    expect(text(verdict(make(null, '80.00'), TARGETS, 'germination'))).toBe(
      'Below the general germination target of 90%',
    );
    expect(text(verdict(make('Lettuce', null), TARGETS, 'germination'))).toBe(
      'No germination rate recorded to judge against the Lettuce germination target of 96%',
    );
    expect(
      text(
        verdict(
          make('Lettuce', '50.00'),
          { general: { germination: null, usable: null, cv: null }, crops: {} },
          'germination',
        ),
      ),
    ).toBe('No germination target set');
  });
  it('is said in German with the German decimal comma', () => {
    const de = createTranslator({ locale: 'de', messages: MESSAGES.de, namespace: 'explorer.verdict' });
    const targets = { ...TARGETS, crops: { ...TARGETS.crops, Lettuce: { germination: 92.5, usable: null, cv: null } } };
    expect(
      sayVerdict(
        verdict(make('Lettuce', '75.85'), targets, 'germination'),
        de,
        formatsFor('de-DE').percentUpTo,
      ).replace(/\s/g, ' '),
    ).toBe('Unter dem Keimraten-Sollwert für Lettuce von 92,5 %');
  });
});
