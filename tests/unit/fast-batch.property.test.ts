import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_FIELDS } from '@/lib/contract';
import { BatchSchema } from '@/lib/contract/schemas';
import { checkBatch, checkBatchList, checkBatchPage } from '@/lib/batch-api/fast-batch';
import { BatchListSchema, BatchPageSchema } from '@/lib/batch-api/schemas';

/** Strings that sit on the edges of the service's formats. */
const edgeStrings = fc.constantFrom(
  '',
  ' ',
  '1.23',
  '-1.23',
  '1.2',
  '1.234',
  '.23',
  '1.23\n',
  '\n1.23',
  '１.２３',
  '0.00',
  '-0.00',
  '2025-01-31T00:00:00Z',
  '2025-01-31T00:00:00+00:00',
  '2025-01-31T00:00Z',
  '2025-01-31T00:00:00.123456789Z',
  '2025-01-31T00:00:00',
  '2025-01-31T00:00:00-00:00',
  '2025-02-30T00:00:00Z',
  '2024-02-29T23:59:59Z',
  '2025-01-31T24:00:00Z',
  '2025-01-31T00:00:00Z\n',
  '0000-01-01T00:00:00Z',
  'b-1',
);
const anyValue = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    true,
    false,
    0,
    -0,
    1,
    -1,
    1.5,
    2 ** 53,
    -(2 ** 53),
    2 ** 53 - 1,
    NaN,
    Infinity,
    -Infinity,
    [],
    {},
    [1],
  ),
  edgeStrings,
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.stringMatching(/^-?\d{1,4}\.\d{1,3}$/),
);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const utcDate = fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }).chain((ms) => {
  const d = new Date(ms);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return fc.constantFrom(
    `${base}:${pad(d.getUTCSeconds())}Z`,
    `${base}Z`,
    `${base}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}+00:00`,
  );
});
const decimal = fc.option(fc.stringMatching(/^-?\d{1,5}\.\d{2}$/), { nil: null });
const int = fc.oneof(fc.integer(), fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER));

/** A batch the service may send: every field valid, sometimes with extra fields of its own. */
const validBatch = fc
  .record({
    batch_id: fc.string({ minLength: 1 }),
    batch_name: fc.string(),
    batch_creation_date: utcDate,
    crop_type: fc.option(fc.string(), { nil: null }),
    number_of_images: int,
    total_cells_per_tray: fc.option(int, { nil: null }),
    avg_germinated_seedlings: decimal,
    avg_non_germinated_seedlings: decimal,
    avg_germination_rate: decimal,
    avg_usable_seedlings: decimal,
    avg_non_usable_cells: decimal,
    avg_usable_seedling_rate: decimal,
    avg_coefficient_of_variation: decimal,
    avg_median_seedling_size_mm2: decimal,
    scanned_by_email: fc.option(fc.string(), { nil: null }),
    analysis_link: fc.option(fc.string(), { nil: null }),
    comment: fc.option(fc.string(), { nil: null }),
    warnings: fc.boolean(),
  })
  .chain((batch) =>
    fc
      .dictionary(
        fc.string().filter((k) => !(k in batch) && k !== '__proto__'),
        anyValue,
        { maxKeys: 3 },
      )
      .map((extra) => ({ ...extra, ...batch })),
  );

/** A valid batch with a few fields replaced by other values or removed: mostly invalid, sometimes still valid. */
const mutatedBatch = fc
  .tuple(
    validBatch,
    fc.array(fc.tuple(fc.constantFrom(...BATCH_FIELDS), fc.option(anyValue, { nil: undefined }), fc.boolean()), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([batch, changes]) => {
    const out: Record<string, unknown> = { ...batch };
    for (const [field, value, remove] of changes) {
      if (remove) delete out[field];
      else out[field] = value;
    }
    return out;
  });

const anyBatch = fc.oneof(
  { arbitrary: validBatch, weight: 2 },
  { arbitrary: mutatedBatch, weight: 3 },
  { arbitrary: anyValue, weight: 1 },
);

/** The fast path answers what zod answers (field for field, in zod's key order), or undefined where zod refuses. */
function expectSameAsZod(fast: unknown, zod: { success: boolean; data?: unknown }) {
  if (zod.success) {
    expect(fast).toStrictEqual(zod.data);
    expect(Object.keys(fast as object)).toEqual(Object.keys(zod.data as object));
  } else {
    expect(fast).toBeUndefined();
  }
}

describe('the hand-written batch check', () => {
  it('accepts exactly what BatchSchema accepts and returns the same batch, extra fields dropped', () => {
    fc.assert(
      fc.property(anyBatch, (input) => {
        expectSameAsZod(checkBatch(input), BatchSchema.safeParse(input));
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts every valid batch (the fast path is taken, zod is not asked)', () => {
    fc.assert(
      fc.property(validBatch, (input) => {
        const out = checkBatch(input);
        expect(out).toBeDefined();
        expect(Object.keys(out!)).toEqual(BATCH_FIELDS);
      }),
      { numRuns: 200 },
    );
  });

  it('matches BatchListSchema and BatchPageSchema on whole lists and pages', () => {
    const list = fc.oneof(fc.array(validBatch, { maxLength: 4 }), fc.array(anyBatch, { maxLength: 4 }), anyValue);
    const token = fc.oneof(fc.constantFrom(undefined, null, '', 'c1', 0, false), fc.string());
    const page = fc.oneof(
      fc.record({ data: list, next_token: token }, { requiredKeys: ['data'] }),
      fc.record({ data: list, next_token: token, extra: anyValue }),
      anyValue,
    );
    fc.assert(
      fc.property(list, page, (l, p) => {
        expectSameAsZod(checkBatchList(l), BatchListSchema.safeParse(l));
        expectSameAsZod(checkBatchPage(p), BatchPageSchema.safeParse(p));
      }),
      { numRuns: 600 },
    );
  });
});
