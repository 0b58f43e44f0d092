/**
 * The browser carries no zod (issue 12: 22 kB of the first screen's JavaScript): it reads the URL, the stream's
 * lines and our API's answers with checks written by hand. Each is held here against a zod schema saying the
 * same thing (the server's own where there is one, else the schema the browser used before), on generated input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BATCH_FIELDS, parseStreamLine, readTargetSettings, BrokenStreamLine, TARGET_METRICS } from '@/lib/contract';
import { BatchSchema, ProblemSchema, SavedViewSchema, TargetSettingsSchema } from '@/lib/contract/schemas';
import { readSavedView } from '@/lib/contract/views';
import { parseDay } from '@/lib/explorer/date-range';
import { RULES } from '@/lib/explorer/control/rules';
import { METRICS } from '@/lib/explorer/metrics';
import { COMPARISONS, GROUP_SORTABLE, GROUPINGS, readState, SORTABLE } from '@/lib/explorer/url-state';
import { zoneOfParam } from '@/lib/explorer/zones';

const RUNS = { numRuns: 400, seed: 12 };

describe('the URL, read without zod', () => {
  // The explorer's URL schema as it was in zod (classic), before readState was written by hand; the range's ends
  // are days or rolling ends (`now-7d`, `now/y`, `all`; `now`), All time's when absent.
  const day = z.string().refine((v) => parseDay(v) !== null);
  const Before = z.object({
    from: z.union([day, z.literal('all'), z.literal('now/y'), z.string().regex(/^now-[1-9]\d{0,4}d$/)]).default('all'),
    to: z.union([day, z.literal('now')]).default('now'),
    tz: z.string().optional().catch(undefined).transform(zoneOfParam),
    q: z.string().max(200).catch('').default(''),
    crop: z.string().max(100).optional().catch(undefined),
    warn: z.literal('1').optional().catch(undefined),
    below: z
      .enum(['1', ...TARGET_METRICS])
      .optional()
      .catch(undefined),
    sort: z.enum(SORTABLE).catch('batch_creation_date').default('batch_creation_date'),
    dir: z.enum(['asc', 'desc']).catch('desc').default('desc'),
    targets: z.string().max(20_000).optional().catch(undefined),
    target: z.coerce.number().min(0).max(100).optional().catch(undefined),
    hide: z.string().max(500).catch('').default(''),
    batch: z.string().max(200).optional().catch(undefined),
    metric: z.enum(METRICS).catch('germination').default('germination'),
    chart: z.enum(['panels', 'focus']).catch('panels').default('panels'),
    focus: z.string().max(5_000).optional().catch(undefined),
    compare: z.enum(COMPARISONS).optional().catch(undefined),
    group: z.enum(GROUPINGS).optional().catch(undefined),
    gsort: z.enum(GROUP_SORTABLE).catch('count').default('count'),
    gdir: z.enum(['asc', 'desc']).catch('desc').default('desc'),
    bins: z.string().max(500).optional().catch(undefined),
    days: z.string().max(30).optional().catch(undefined),
    scanner: z.string().max(320).optional().catch(undefined),
    spc: z.string().max(100).optional().catch(undefined),
    base: z.string().max(30).optional().catch(undefined),
    rules: z.enum(RULES).catch('limits').default('limits'),
  });
  const keys = Object.keys(Before.shape);
  const values = fc.oneof(
    fc.constantFrom(
      '',
      '1',
      '0',
      '100',
      '101',
      '-1',
      '1e2',
      'NaN',
      ' 5',
      'asc',
      'desc',
      'focus',
      'crop',
      'previous',
      'size',
      'target',
      'Europe/Berlin',
      'Mars/Base',
      'limits',
      'runs',
      '2025-02-29',
      '2024-02-29',
      '2025-13-01',
      '2025-01-31',
      'x'.repeat(250),
    ),
    fc.constantFrom(
      'all',
      'now',
      'now/y',
      'now-7d',
      'now-90d',
      'now-0d',
      'now-07d',
      'now-100000d',
      'now-99999d',
      'now-1w',
      'now/M',
      'NOW',
    ),
    fc.string({ maxLength: 40 }),
    fc.constantFrom(...SORTABLE, ...GROUP_SORTABLE, ...METRICS),
  );
  const params = fc.array(fc.tuple(fc.constantFrom(...keys, 'other'), values), { maxLength: 12 });

  it('gives exactly the state the zod schema gave, for any parameters', () => {
    fc.assert(
      fc.property(params, (pairs) => {
        const url = new URLSearchParams(pairs);
        const raw = Object.fromEntries(url.entries());
        const before = Before.safeParse(raw);
        const { state, dateError } = readState(url);
        if (before.success) {
          expect(state).toStrictEqual(before.data);
          expect(dateError).toBeNull();
        } else {
          const field = before.error.issues[0]!.path[0] === 'from' ? 'from' : 'to';
          expect(dateError).toEqual({ kind: 'invalid', field, value: raw[field] ?? '' });
          const broken = new Set(before.error.issues.map((i) => String(i.path[0])));
          expect(state).toStrictEqual(
            Before.parse(Object.fromEntries(Object.entries(raw).filter(([k]) => !broken.has(k)))),
          );
        }
      }),
      RUNS,
    );
  });
});

describe('the stream and our API, read without zod', () => {
  const batch = { batch_id: 'b1', batch_name: 'n', batch_creation_date: '2025-01-01T00:00:00Z' };
  const Line = z.union([
    z
      .object({ batches: z.array(z.object({ batch_id: z.string() }).passthrough()), pending: z.string().optional() })
      .strict(),
    z.object({ done: z.literal(true), count: z.number().int().nonnegative() }).strict(),
    z.object({ error: ProblemSchema, remaining: z.string() }).strict(),
  ]);
  const anything = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -3, max: 3 }),
    fc.double(),
    fc.string({ maxLength: 5 }),
    fc.constant(batch),
  );
  const lines = fc.oneof(
    fc.record(
      {
        batches: fc.array(fc.oneof(fc.constant(batch), anything), { maxLength: 3 }),
        pending: fc.option(fc.string(), { nil: undefined }),
      },
      { requiredKeys: ['batches'] },
    ),
    fc.record({ done: fc.oneof(fc.constant(true), anything), count: anything }),
    fc.record({
      error: fc.oneof(
        fc.record({ status: anything, detail: anything, retryAfterS: anything }),
        fc.record({
          status: fc.constant(503),
          detail: fc.constant('x'),
          retryAfterS: fc.oneof(fc.constant(null), fc.integer({ min: -1, max: 3 })),
        }),
      ),
      remaining: anything,
    }),
    fc.dictionary(fc.constantFrom('batches', 'done', 'error', 'remaining', 'count', 'pending', 'x'), anything),
  );

  it('takes exactly the lines the stream may send, and nothing else', () => {
    fc.assert(
      fc.property(lines, (value) => {
        const text = JSON.stringify(value);
        const expected = Line.safeParse(JSON.parse(text));
        if (expected.success) expect(parseStreamLine(text)).toStrictEqual(expected.data);
        else expect(() => parseStreamLine(text)).toThrow(BrokenStreamLine);
      }),
      RUNS,
    );
  });

  const percent = fc.oneof(
    fc.constant(null),
    fc.integer({ min: -5, max: 105 }),
    fc.double({ min: -1, max: 101, noNaN: true }),
    fc.constantFrom(92.5, 33.33, 12.345),
  );
  const pair = fc.record(
    { germination: percent, usable: percent, cv: percent },
    { requiredKeys: ['germination', 'usable'] },
  );
  const settings = fc.record({
    targets: fc.record({
      general: pair,
      crops: fc.dictionary(
        fc.constantFrom('Tomato', ' Lettuce', '', 'Basil', 'Tom\u0000ato', '\ud800', 'Tom\tato', 'Tomato 🍅'),
        pair,
        { maxKeys: 3 },
      ),
    }),
    updatedAt: fc.oneof(fc.constant(null), fc.constant('2026-01-01T00:00:00.000Z'), fc.integer()),
    updatedBy: fc.oneof(
      fc.constant(null),
      fc.record({ email: fc.string(), name: fc.string() }),
      fc.record({ email: fc.string() }),
      anything,
    ),
  });

  it('reads our targets answer as the server’s schema does', () => {
    fc.assert(
      fc.property(settings, (value) => {
        const expected = TargetSettingsSchema.safeParse(value);
        expect(readTargetSettings(value)).toStrictEqual(expected.success ? expected.data : null);
      }),
      RUNS,
    );
  });

  it('reads a saved view as the server’s schema does', () => {
    const owner = fc.oneof(
      fc.constant(null),
      fc.record({ email: fc.string(), name: fc.string() }),
      fc.record({ name: fc.string() }),
      anything,
    );
    const view = fc.record({
      id: anything,
      name: fc.string(),
      query: fc.string(),
      isDefault: fc.oneof(fc.boolean(), anything),
      shared: fc.oneof(fc.boolean(), anything),
      owner,
      mine: fc.oneof(fc.boolean(), anything),
      createdAt: fc.string(),
      updatedAt: fc.oneof(fc.string(), anything),
    });
    fc.assert(
      fc.property(view, (value) => {
        const expected = SavedViewSchema.safeParse(value);
        expect(readSavedView(value)).toStrictEqual(expected.success ? expected.data : null);
      }),
      RUNS,
    );
  });

  it('names the batch fields in the schema’s own order', () => {
    expect(BATCH_FIELDS).toEqual(Object.keys(BatchSchema.shape));
  });
});
