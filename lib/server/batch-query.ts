import 'server-only';
import { z } from 'zod';
import { UtcDateString } from '../batch-api/schemas';

/** Query of /api/batches and its export: the service's date rules, checked before any upstream call. */
export const RangeQuerySchema = z
  .object({
    start_date: UtcDateString.optional(),
    end_date: UtcDateString.optional(),
  })
  .strict();

export const PageQuerySchema = RangeQuerySchema.extend({
  cursor: z.string().max(4096, 'at most 4096 characters').optional(),
}).strict();
