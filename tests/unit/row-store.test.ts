import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_FIELDS, type Batch } from '@/lib/contract';
import { RowStore } from '@/lib/explorer/row-store';
import { cropsOf, filterRows, searchWords, sortRows, summarize, toRow, type Row } from '@/lib/explorer/rows';
import { DEFAULT_TARGETS } from '@/lib/contract/targets';
import { formatUtcDate } from '@/lib/utc-date';

/** Decimals as the service writes them, and odd ones that must come back as they went in. */
const decimal = fc.oneof(
  fc.constant(null),
  fc
    .integer({ min: -999_999_999, max: 999_999_999 })
    .map((c) => `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`),
  fc.constantFrom('-0.00', '007.10', '12345678901.25', '1.5', '', ' 1.00', '1e3', 'NaN', '0.00'),
  fc.string(),
);
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', 'Tomato', 'TOMATO', 'İstanbul', 'ΟΔΟΣ', 'a\nb', '😀 emoji', '\u0000'),
);
const int = fc.oneof(
  fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }),
  fc.constantFrom(-0, 2 ** 40, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER),
);
const date = fc.oneof(
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map(formatUtcDate),
  fc.constantFrom('2026-01-05T10:22:31+00:00', '2026-01-05T10:22:31.5Z', '2026-01-05T10:22:31.000Z', 'not a date'),
);

const batchArb: fc.Arbitrary<Batch> = fc.record({
  batch_id: fc.oneof(fc.uuid(), fc.string({ minLength: 1 })),
  batch_name: text,
  batch_creation_date: date,
  crop_type: fc.option(text),
  number_of_images: int,
  total_cells_per_tray: fc.option(int),
  avg_germinated_seedlings: decimal,
  avg_non_germinated_seedlings: decimal,
  avg_germination_rate: decimal,
  avg_usable_seedlings: decimal,
  avg_non_usable_cells: decimal,
  avg_usable_seedling_rate: decimal,
  avg_coefficient_of_variation: decimal,
  avg_median_seedling_size_mm2: decimal,
  scanned_by_email: fc.option(text),
  analysis_link: fc.option(fc.oneof(text, fc.constant('https://r.example/a/'))),
  comment: fc.option(text),
  warnings: fc.boolean(),
}) as fc.Arbitrary<Batch>;

const num = (v: string | null) => (v === null ? null : Number(v));
const haystack = (b: Batch) =>
  [b.batch_name, b.crop_type, b.comment, b.scanned_by_email].filter(Boolean).join('\n').toLowerCase();

describe('the columnar row store', () => {
  it('gives back exactly the batches put in, field for field, in the service order', () => {
    fc.assert(
      fc.property(fc.array(batchArb, { maxLength: 40 }), (batches) => {
        // Some links are folder + batch_id, as the service writes them.
        const input = batches.map((b, k) =>
          k % 3 === 0 && b.analysis_link !== null ? { ...b, analysis_link: `https://r.example/x/${b.batch_id}` } : b,
        );
        const store = new RowStore();
        const rows = input.map((b) => store.add(b));
        rows.forEach((r, k) => {
          const b = input[k]!;
          expect(Object.keys(r.batch)).toEqual(BATCH_FIELDS);
          for (const f of BATCH_FIELDS)
            expect(Object.is(r.field(f), b[f]), `${f}: ${String(r.field(f))} vs ${String(b[f])}`).toBe(true);
          expect(JSON.stringify(r.batch)).toBe(JSON.stringify(b));
          expect(r.id).toBe(b.batch_id);
          expect(r.crop).toBe(b.crop_type);
          expect(r.scanner).toBe(b.scanned_by_email);
          expect(r.warnings).toBe(b.warnings);
          expect(Object.is(r.germination, num(b.avg_germination_rate))).toBe(true);
          expect(Object.is(r.usable, num(b.avg_usable_seedling_rate))).toBe(true);
          expect(Object.is(r.cv, num(b.avg_coefficient_of_variation))).toBe(true);
          expect(Object.is(r.size, num(b.avg_median_seedling_size_mm2))).toBe(true);
          expect(r.cells).toBe(b.total_cells_per_tray);
          expect(r.time).toBe(Date.parse(b.batch_creation_date));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('finds by Search exactly the rows a lower-cased haystack of name, crop, comment and e-mail would', () => {
    const word = fc.oneof(
      fc.constantFrom('to', 'tomato', 'a', 'ς', 'σ', 'i̇', '😀', '.0'),
      fc.string({ minLength: 1, maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(batchArb, { maxLength: 60 }), fc.array(word, { maxLength: 3 }), (batches, words) => {
        const rows = batches.map(toRow);
        const q = words.join(' ');
        const expected = batches
          .filter((b) => searchWords(q).every((w) => haystack(b).includes(w)))
          .map((b) => b.batch_id);
        expect(filterRows(rows, { q, targets: DEFAULT_TARGETS }).map((r) => r.id)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('finds names across the chunks its Search text is cut into, and rows added after a search', () => {
    const store = new RowStore();
    const base = {
      batch_id: '',
      batch_name: '',
      batch_creation_date: '2026-01-01T00:00:00Z',
      crop_type: null,
      number_of_images: 1,
      total_cells_per_tray: null,
      avg_germinated_seedlings: null,
      avg_non_germinated_seedlings: null,
      avg_germination_rate: null,
      avg_usable_seedlings: null,
      avg_non_usable_cells: null,
      avg_usable_seedling_rate: null,
      avg_coefficient_of_variation: null,
      avg_median_seedling_size_mm2: null,
      scanned_by_email: null,
      analysis_link: null,
      comment: null,
      warnings: false,
    } satisfies Batch;
    const rows: Row[] = [];
    for (let k = 0; k < 10_000; k++)
      rows.push(
        store.add({ ...base, batch_id: `b${k}`, batch_name: k % 997 === 0 ? `Rare Needle ${k}` : `Plain ${k}` }),
      );
    const found = () => filterRows(rows, { q: 'NEEDLE', targets: DEFAULT_TARGETS }).map((r) => r.id);
    expect(found()).toEqual(rows.filter((_, k) => k % 997 === 0).map((r) => r.id));
    rows.push(store.add({ ...base, batch_id: 'late', batch_name: 'needle, late' }));
    expect(found().at(-1)).toBe('late');
  });

  it('sorts text by its lower-cased code units, as before, and mixed stores alike', () => {
    fc.assert(
      fc.property(
        fc.array(batchArb, { maxLength: 50 }),
        fc.constantFrom('batch_name' as const, 'crop_type' as const),
        fc.constantFrom('asc' as const, 'desc' as const),
        (batches, field, dir) => {
          const lower = (b: Batch) => b[field]?.toLowerCase() ?? null;
          const idx = batches
            .map((_, k) => k)
            .sort((a, b) => {
              const x = lower(batches[a]!),
                y = lower(batches[b]!);
              if (x === y) return a - b;
              if (x === null) return 1;
              if (y === null) return -1;
              return (x < y ? -1 : 1) * (dir === 'asc' ? 1 : -1);
            });
          const store = new RowStore();
          const rows = batches.map((b) => store.add(b));
          expect(sortRows(rows, field, dir, DEFAULT_TARGETS)).toEqual(idx.map((k) => rows[k]));
          const mixed = batches.map((b, k) => (k % 2 ? store.add(b) : toRow(b)));
          expect(sortRows(mixed, field, dir, DEFAULT_TARGETS)).toEqual(idx.map((k) => mixed[k]));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sorts figures as the comparator did: nulls last both ways, ties in creation order, odd decimals too', () => {
    const fields = [
      'avg_germination_rate',
      'total_cells_per_tray',
      'number_of_images',
      'avg_coefficient_of_variation',
      'target',
    ] as const;
    fc.assert(
      fc.property(
        fc.array(batchArb, { maxLength: 60 }),
        fc.constantFrom(...fields),
        fc.constantFrom('asc' as const, 'desc' as const),
        (batches, field, dir) => {
          const store = new RowStore();
          const rows = batches.map((b) => store.add(b));
          const key = (r: Row): number =>
            field === 'target'
              ? (DEFAULT_TARGETS.general.germination ?? NaN)
              : field === 'avg_germination_rate'
                ? (r.germination ?? NaN)
                : field === 'avg_coefficient_of_variation'
                  ? (r.cv ?? NaN)
                  : field === 'total_cells_per_tray'
                    ? (r.cells ?? NaN)
                    : r.field('number_of_images');
          const idx = rows
            .map((_, k) => k)
            .sort((a, b) => {
              const x = key(rows[a]!),
                y = key(rows[b]!);
              if (x === y || (x !== x && y !== y)) return a - b;
              if (x !== x) return 1;
              if (y !== y) return -1;
              return (x < y ? -1 : 1) * (dir === 'asc' ? 1 : -1);
            });
          expect(sortRows(rows, field, dir, DEFAULT_TARGETS)).toEqual(idx.map((k) => rows[k]));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('summarizes from the columns exactly as from the getters (rows of two stores take the getters)', () => {
    fc.assert(
      fc.property(fc.array(batchArb, { maxLength: 60 }), (batches) => {
        const valid = batches.map((b) => ({ ...b, warnings: b.warnings }));
        const store = new RowStore();
        const one = valid.map((b) => store.add(b));
        const mixed = valid.map((b, k) => (k % 2 ? store.add(b) : toRow(b)));
        const targets = { ...DEFAULT_TARGETS, crops: { Tomato: { germination: 95, usable: null, cv: null } } };
        expect(summarize(one, targets)).toEqual(summarize(mixed, targets));
        expect(cropsOf(one)).toEqual(cropsOf(mixed));
      }),
      { numRuns: 300 },
    );
  });
});
