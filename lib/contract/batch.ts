import * as z from '../zod';
import { parseUtcDate } from '../utc-date';

/** A decimal travels as a string with exactly two digits after the point, or null (docs/batch-data-service.md#batches). */
const DecimalString = z.string().check(z.regex(/^-?\d+\.\d{2}$/, 'expected a decimal string with two digits after the point'));

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
export type Batch = z.infer<typeof BatchSchema>;

/** The service's field names in its own order: CSV headers, the detail dialog and tables use this order. */
export const BATCH_FIELDS = Object.keys(BatchSchema.shape) as (keyof Batch)[];
