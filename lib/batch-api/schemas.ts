import { z } from 'zod';
import { BatchSchema, DateRangeSchema } from '../contract/schemas';

/** v1 answers the whole range as one flat list (docs/batch-data-service.md#listing-batches). */
export const BatchListSchema = z.array(BatchSchema);

/** A v2 page; `next_token` null or absent means the last page (docs/batch-data-service.md#paging). */
export const BatchPageSchema = z.object({
  data: BatchListSchema,
  next_token: z
    .string()
    .min(1)
    .nullish()
    .transform((v) => v ?? null),
});
export type BatchPage = z.infer<typeof BatchPageSchema>;

/** Only `access_token` is promised; `expires_in` is used when a service sends it (docs/batch-data-service.md#authentication). */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive().optional().catch(undefined),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** The filters of both versions: a date range by the service's own date rules. */
export const BatchQuerySchema = DateRangeSchema;
export type BatchQuery = z.infer<typeof BatchQuerySchema>;

export const ApiVersionSchema = z.enum(['v1', 'v2']);
export type ApiVersion = z.infer<typeof ApiVersionSchema>;
