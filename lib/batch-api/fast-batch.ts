import type { Batch } from '../contract';
import { parseUtcDate } from '../utc-date';
import type { BatchPage } from './schemas';

/**
 * BatchSchema (lib/contract/schemas.ts) written out by hand for the upstream client's hot path: every batch of
 * every page goes through it, and zod's checks (closures, issue arrays, a result object per field) were the
 * largest share of the BFF's CPU per page after JSON itself. This is only a fast path: it answers the same
 * batch zod would, or `undefined`, and the caller then asks zod, whose error names the field as before.
 * tests/unit/fast-batch.property.test.ts holds it to exactly what BatchSchema accepts and returns.
 */

/** DecimalString's pattern, the same text as in lib/contract/schemas.ts. */
const DECIMAL = /^-?\d+\.\d{2}$/;

function isDecimal(value: unknown): value is string | null {
  return value === null || (typeof value === 'string' && DECIMAL.test(value));
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

/** zod's `z.int()`: a finite number, whole, within the safe integer range. */
function isInt(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

/** zod's `z.object` accepts any non-array object and reads the shape's keys from it. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One batch as BatchSchema outputs it (exactly its 18 fields in its order, extra fields dropped), or undefined. */
export function checkBatch(input: unknown): Batch | undefined {
  if (!isRecord(input)) return undefined;
  // Copied first, in BatchSchema's order (as zod builds its output), then checked: the copy is the answer.
  const batch = {
    batch_id: input.batch_id,
    batch_name: input.batch_name,
    batch_creation_date: input.batch_creation_date,
    crop_type: input.crop_type,
    number_of_images: input.number_of_images,
    total_cells_per_tray: input.total_cells_per_tray,
    avg_germinated_seedlings: input.avg_germinated_seedlings,
    avg_non_germinated_seedlings: input.avg_non_germinated_seedlings,
    avg_germination_rate: input.avg_germination_rate,
    avg_usable_seedlings: input.avg_usable_seedlings,
    avg_non_usable_cells: input.avg_non_usable_cells,
    avg_usable_seedling_rate: input.avg_usable_seedling_rate,
    avg_coefficient_of_variation: input.avg_coefficient_of_variation,
    avg_median_seedling_size_mm2: input.avg_median_seedling_size_mm2,
    scanned_by_email: input.scanned_by_email,
    analysis_link: input.analysis_link,
    comment: input.comment,
    warnings: input.warnings,
  };
  const ok =
    typeof batch.batch_id === 'string' &&
    batch.batch_id.length >= 1 &&
    typeof batch.batch_name === 'string' &&
    typeof batch.batch_creation_date === 'string' &&
    isNullableString(batch.crop_type) &&
    isInt(batch.number_of_images) &&
    (batch.total_cells_per_tray === null || isInt(batch.total_cells_per_tray)) &&
    isDecimal(batch.avg_germinated_seedlings) &&
    isDecimal(batch.avg_non_germinated_seedlings) &&
    isDecimal(batch.avg_germination_rate) &&
    isDecimal(batch.avg_usable_seedlings) &&
    isDecimal(batch.avg_non_usable_cells) &&
    isDecimal(batch.avg_usable_seedling_rate) &&
    isDecimal(batch.avg_coefficient_of_variation) &&
    isDecimal(batch.avg_median_seedling_size_mm2) &&
    isNullableString(batch.scanned_by_email) &&
    isNullableString(batch.analysis_link) &&
    isNullableString(batch.comment) &&
    typeof batch.warnings === 'boolean' &&
    parseUtcDate(batch.batch_creation_date).ok;
  return ok ? (batch as Batch) : undefined;
}

export function checkBatchList(input: unknown): Batch[] | undefined {
  if (!Array.isArray(input)) return undefined;
  const out = new Array<Batch>(input.length);
  for (let i = 0; i < input.length; i++) {
    const batch = checkBatch(input[i]);
    if (batch === undefined) return undefined;
    out[i] = batch;
  }
  return out;
}

/** BatchPageSchema: `data` a list of batches, `next_token` a non-empty string or null/absent (read as null). */
export function checkBatchPage(input: unknown): BatchPage | undefined {
  if (!isRecord(input)) return undefined;
  const token = input.next_token;
  if (token !== undefined && token !== null && (typeof token !== 'string' || token.length < 1)) return undefined;
  const data = checkBatchList(input.data);
  if (data === undefined) return undefined;
  return { data, next_token: token ?? null };
}
