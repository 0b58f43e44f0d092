import * as z from 'zod/mini';
import { parseUtcDate } from '../utc-date';
import { withoutOrg } from '../org-param';
import type { Batch } from './batch';
import { MAX_PART_CHARS, PAIRS, SIDES } from './parts';
import { storableTextProblem } from './storable-text';
import { dateRange, type DateRange } from './range';
import type { Problem, StreamLine } from './stream';
import {
  cropNameProblem,
  hasTwoDecimalsAtMost,
  MAX_CROP_TARGETS,
  type TargetPair,
  type Targets,
  type TargetSave,
  type TargetSettings,
} from './targets';
import {
  MAX_VIEW_NAME,
  MAX_VIEW_QUERY,
  viewQueryProblem,
  type SavedView,
  type SavedViewList,
  type ViewChange,
  type ViewCreate,
} from './views';

/*
 * The contract's schemas: what the server checks everything against that it is sent (the service's batches, our
 * API's queries and bodies) and what tests check our answers against. The server only: the browser reads our own
 * answers with the few checks it needs (parseStreamLine, readState, validTargets), and carries no zod. The types
 * live beside the helpers (batch.ts, range.ts, ...); the checks at the end of this file keep them and the schemas
 * the same.
 */

/** A decimal travels as a string with exactly two digits after the point, or null (docs/batch-data-service.md#batches). */
const DecimalString = z
  .string()
  .check(z.regex(/^-?\d+\.\d{2}$/, 'expected a decimal string with two digits after the point'));

/** A UTC instant written by the service's date rules (docs/batch-data-service.md#dates). */
export const UtcDateString = z.string().check(
  z.superRefine((value, ctx) => {
    const parsed = parseUtcDate(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value.slice(0, 64))} ${parsed.reason}` });
  }),
);

const nullableDecimal = z.nullable(DecimalString);
const nullableInt = z.nullable(z.int());

/**
 * One batch, exactly the service's 18 fields (docs/batch-data-service.md#batches), and exactly what our own
 * API hands to the browser. Unknown extra fields are dropped rather than rejected.
 */
export const BatchSchema = z.object({
  batch_id: z.string().check(z.minLength(1)),
  batch_name: z.string(),
  batch_creation_date: UtcDateString,
  crop_type: z.nullable(z.string()),
  number_of_images: z.int(),
  total_cells_per_tray: nullableInt,
  avg_germinated_seedlings: nullableDecimal,
  avg_non_germinated_seedlings: nullableDecimal,
  avg_germination_rate: nullableDecimal,
  avg_usable_seedlings: nullableDecimal,
  avg_non_usable_cells: nullableDecimal,
  avg_usable_seedling_rate: nullableDecimal,
  avg_coefficient_of_variation: nullableDecimal,
  avg_median_seedling_size_mm2: nullableDecimal,
  scanned_by_email: z.nullable(z.string()),
  analysis_link: z.nullable(z.string()),
  comment: z.nullable(z.string()),
  warnings: z.boolean(),
});

/**
 * A span of creation instants, each end optional and inclusive, written by the service's date rules: what the
 * service filters on, what our API takes, and what the range loader cuts into parts.
 */
export const DateRangeSchema = z.object({
  start_date: z.optional(UtcDateString),
  end_date: z.optional(UtcDateString),
});

/** Parses `parts`; `maxParts` is the most a load can leave unfinished (see maxUnfinishedParts). */
export function partsSchema(maxParts: number) {
  return z.pipe(
    z.string().check(z.maxLength(maxParts * (MAX_PART_CHARS + PAIRS.length), `at most ${maxParts} parts`)),
    z.transform((text: string, ctx) => {
      const parts: DateRange[] = [];
      for (const [i, pair] of text.split(PAIRS).entries()) {
        const sides = pair.split(SIDES);
        if (sides.length !== 2) {
          ctx.issues.push({
            code: 'custom',
            message: `part ${i + 1} must be start${SIDES}end (either side may be empty)`,
            input: text,
          });
          return z.NEVER;
        }
        for (const [side, value] of [
          ['start_date', sides[0]!],
          ['end_date', sides[1]!],
        ] as const) {
          if (value === '') continue;
          const date = UtcDateString.safeParse(value);
          if (!date.success) {
            ctx.issues.push({
              code: 'custom',
              message: `part ${i + 1} ${side}: ${date.error.issues[0]!.message}`,
              input: text,
            });
            return z.NEVER;
          }
        }
        parts.push(dateRange(sides[0] || undefined, sides[1] || undefined));
      }
      if (parts.length > maxParts) {
        ctx.issues.push({ code: 'custom', message: `at most ${maxParts} parts`, input: text });
        return z.NEVER;
      }
      return parts;
    }),
  );
}

/** What the browser needs to explain a failure: our status, our sentence, and the service's advice in seconds. */
export const ProblemSchema = z.object({
  status: z.int(),
  detail: z.string(),
  retryAfterS: z.nullable(z.int().check(z.positive())),
});

function streamLineSchema<B extends z.ZodMiniType<Batch>>(batch: B) {
  return z.union([
    /**
     * Batches as their pages arrive, in no particular order, each batch of the range once; `pending` names the
     * parts still being loaded after these (for the page to say what is missing; a retry does not resume from it:
     * lines sent before it may not have arrived).
     */
    z.strictObject({ batches: z.array(batch), pending: z.optional(z.string()) }),
    /** The last line of a complete range: `count` batches in all. */
    z.strictObject({ done: z.literal(true), count: z.int().check(z.nonnegative()) }),
    /** The last line of an interrupted range: why, and the parts still to fetch (`parts=` of the retry). */
    z.strictObject({ error: ProblemSchema, remaining: z.string() }),
  ]);
}

/** One line of `/api/batches/stream`, every batch checked field by field (the server's output, tests). */
export const StreamLineSchema = streamLineSchema(BatchSchema);

const Percent = z
  .number({ error: 'must be a number from 0 to 100' })
  .check(
    z.minimum(0, 'must be from 0 to 100'),
    z.maximum(100, 'must be from 0 to 100'),
    z.refine(hasTwoDecimalsAtMost, 'must have at most two decimals'),
  );
/** A percent of its own, or null: none (absent reads as none). */
const OwnPercent = z._default(z.nullable(Percent), null);

/**
 * Germination and usable targets and the CV threshold, in percent; null: none of its own. Settings saved
 * before the CV threshold existed have no `cv`, and read as none.
 */
export const TargetPairSchema = z.strictObject({ germination: OwnPercent, usable: OwnPercent, cv: OwnPercent });

export const TargetsSchema = z.strictObject({
  general: TargetPairSchema,
  crops: z._default(
    z.record(z.string(), TargetPairSchema).check(
      z.superRefine((crops, ctx) => {
        const names = Object.keys(crops);
        if (names.length > MAX_CROP_TARGETS)
          ctx.addIssue({ code: 'custom', message: `at most ${MAX_CROP_TARGETS} crops` });
        for (const name of names) {
          const problem = cropNameProblem(name);
          if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [name] });
        }
      }),
    ),
    {},
  ),
});

/** What `/api/settings/targets` answers: the organisation's targets and when they last changed (null: never saved). */
const SavedBySchema = z.nullable(z.object({ email: z.string(), name: z.string() }));

export const TargetSettingsSchema = z.object({
  targets: TargetsSchema,
  updatedAt: z.nullable(z.string()),
  updatedBy: SavedBySchema,
});

/** What `/api/settings/targets/history` answers: the organisation's saved target sets, newest first. */
export const TargetHistorySchema = z.object({
  entries: z.array(z.object({ id: z.string(), savedAt: z.string(), savedBy: SavedBySchema, targets: TargetsSchema })),
});

/**
 * The body of a save. `expectedUpdatedAt` is the `updatedAt` the editor started from: when a colleague has
 * saved since, the save is refused (409) instead of silently undoing their change. Absent: save regardless.
 */
export const TargetSaveSchema = z.strictObject({
  targets: TargetsSchema,
  // Checked as a time here, so that no string of the client's ever reaches the database's date parser.
  expectedUpdatedAt: z.optional(
    z.nullable(
      z.iso.datetime({ offset: true, error: 'must be the updatedAt the edit started from, an ISO 8601 time, or null' }),
    ),
  ),
});

/** Refuses text the settings store could not keep as sent (lib/contract/storable-text.ts). */
const storable = (options?: { controls?: boolean }) =>
  z.superRefine((text: string, ctx) => {
    const problem = storableTextProblem(text, options);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const ViewNameSchema = z
  .string({ error: 'must be a text' })
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(MAX_VIEW_NAME, `must be at most ${MAX_VIEW_NAME} characters`),
    storable(),
  );

/** What follows `?` on /batches (a leading `?` is dropped), its parameters only the explorer's own. */
export const ViewQuerySchema = z.string({ error: 'must be a text, the query string of /batches' }).check(
  z.maxLength(MAX_VIEW_QUERY, `must be at most ${MAX_VIEW_QUERY} characters`),
  storable(),
  // The organisation a page was for is no part of a view: the view opens in whichever organisation it is kept.
  z.overwrite((q) => withoutOrg(q.startsWith('?') ? q.slice(1) : q)),
  z.superRefine((q, ctx) => {
    const problem = viewQueryProblem(q);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

export const SavedViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  query: z.string(),
  isDefault: z.boolean(),
  shared: z.boolean(),
  owner: z.nullable(z.object({ email: z.string(), name: z.string() })),
  mine: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** What `GET /api/settings/views` answers: the organisation's views by name. */
export const SavedViewListSchema = z.object({ views: z.array(SavedViewSchema) });

const flag = () => z.optional(z.boolean({ error: 'must be true or false' }));

export const ViewCreateSchema = z.strictObject({
  name: ViewNameSchema,
  query: ViewQuerySchema,
  isDefault: flag(),
  shared: flag(),
});

/** A rename, a change of default, sharing or not, or several. */
export const ViewChangeSchema = z
  .strictObject({ name: z.optional(ViewNameSchema), isDefault: flag(), shared: flag() })
  .check(
    z.refine(
      (c) => c.name !== undefined || c.isDefault !== undefined || c.shared !== undefined,
      'must name a new name, isDefault or shared',
    ),
  );

/* The hand-written types and the schemas' outputs are the same types (a mismatch fails the typecheck). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(yes: Same<A, B>) => yes;
same<z.output<typeof BatchSchema>, Batch>(true);
same<z.output<typeof DateRangeSchema>, DateRange>(true);
same<z.output<typeof ProblemSchema>, Problem>(true);
same<z.output<typeof StreamLineSchema>, StreamLine>(true);
same<z.output<typeof TargetPairSchema>, TargetPair>(true);
same<z.output<typeof TargetsSchema>, Targets>(true);
same<z.output<typeof TargetSettingsSchema>, TargetSettings>(true);
same<z.output<typeof TargetSaveSchema>, TargetSave>(true);
same<z.output<typeof SavedViewSchema>, SavedView>(true);
same<z.output<typeof SavedViewListSchema>, SavedViewList>(true);
same<z.output<typeof ViewCreateSchema>, ViewCreate>(true);
same<z.output<typeof ViewChangeSchema>, ViewChange>(true);
