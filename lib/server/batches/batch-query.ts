import 'server-only';
import { z } from 'zod';
import { MAX_CONCURRENCY } from '../../batch-api/range-load';
import { maxUnfinishedParts } from '../../batch-api/range-parts';
import { partsProblem } from '../../contract';
import { DateRangeSchema, partsSchema } from '../../contract/schemas';

/** Query of /api/batches/export: a date range by the service's rules, checked before any upstream call. */
export const RangeQuerySchema = z.strictObject(DateRangeSchema.shape);

/** Query of /api/batches: the range and the cursor of the page after the last one (none for the first). */
export const PageQuerySchema = z.strictObject({
  ...DateRangeSchema.shape,
  cursor: z.string().max(4096, 'at most 4096 characters').optional(),
});

/**
 * The most parts an interrupted load can name, whatever BATCH_API_CONCURRENCY is (the retry may reach an
 * instance with another setting): 153, about 11 kB in a URL, well under Node's 16 kB header limit.
 */
const MAX_RESUME_PARTS = maxUnfinishedParts(MAX_CONCURRENCY);

/** Query of /api/batches/stream: the range, or the parts of it still to fetch after an interruption. */
export const StreamQuerySchema = z
  .strictObject({ ...DateRangeSchema.shape, parts: z.optional(partsSchema(MAX_RESUME_PARTS)) })
  .superRefine((query, ctx) => {
    // Only parts that parsed (a `parts` refused for its length arrives here as the text it was).
    if (!Array.isArray(query.parts)) return;
    const problem = partsProblem(query, query.parts);
    if (problem) ctx.addIssue({ code: 'custom', path: ['parts'], message: problem });
  });
export type StreamQuery = z.infer<typeof StreamQuerySchema>;
