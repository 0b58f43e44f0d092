import { z } from 'zod';
import { parseUtcDate } from '../utc-date';

/** Spec 2.1 rule 1: a decimal travels as a string with exactly two digits after the point, or null. */
export const DecimalString = z
  .string()
  .regex(/^-?\d+\.\d{2}$/, 'expected a decimal string with two digits after the point');

const nullableDecimal = DecimalString.nullable();
const nullableInt = z.number().int().nullable();

export const UtcDateString = z.string().superRefine((value, ctx) => {
  const parsed = parseUtcDate(value);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value.slice(0, 64))} ${parsed.reason}` });
});

/** Spec 2.1: exactly these 18 fields. Unknown extra fields are dropped rather than rejected. */
export const BatchSchema = z.object({
  batch_id: z.string().min(1),
  batch_name: z.string(),
  batch_creation_date: UtcDateString,
  crop_type: z.string().nullable(),
  number_of_images: z.number().int(),
  total_cells_per_tray: nullableInt,
  avg_germinated_seedlings: nullableDecimal,
  avg_non_germinated_seedlings: nullableDecimal,
  avg_germination_rate: nullableDecimal,
  avg_usable_seedlings: nullableDecimal,
  avg_non_usable_cells: nullableDecimal,
  avg_usable_seedling_rate: nullableDecimal,
  avg_coefficient_of_variation: nullableDecimal,
  avg_median_seedling_size_mm2: nullableDecimal,
  scanned_by_email: z.string().nullable(),
  analysis_link: z.string().nullable(),
  comment: z.string().nullable(),
  warnings: z.boolean(),
});
export type Batch = z.infer<typeof BatchSchema>;

/** The service's field names in the order of the spec: CSV headers and tables use this order. */
export const BATCH_FIELDS = Object.keys(BatchSchema.shape) as (keyof Batch)[];

export const BatchListSchema = z.array(BatchSchema);

/** Spec 2.3 and paging rule 3: `next_token` null or absent means the last page. */
export const BatchPageSchema = z.object({
  data: BatchListSchema,
  next_token: z.string().min(1).nullish().transform((v) => v ?? null),
});
export type BatchPage = z.infer<typeof BatchPageSchema>;

/** Spec 2.2: only `access_token` is documented; `expires_in` is used when a service sends it. */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive().optional().catch(undefined),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** Query filters shared by v1 and v2 (spec 4.2, 4.3), validated with the service's own date rules. */
export const BatchQuerySchema = z.object({
  start_date: UtcDateString.optional(),
  end_date: UtcDateString.optional(),
});
export type BatchQuery = z.infer<typeof BatchQuerySchema>;

export const ApiVersionSchema = z.enum(['v1', 'v2']);
export type ApiVersion = z.infer<typeof ApiVersionSchema>;
