import 'server-only';
import { z } from 'zod';
import { UtcDateString } from '../batch-api/schemas';
import { parseUtcDate } from '../utc-date';

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

/** A load has at most about 50 parts unfinished; this keeps the URL well under 16 kB (Node's header limit). */
const MAX_PARTS = 128;

/**
 * `parts` of a resumed load, exactly as an interrupted stream named them: `start~end` pairs joined by commas,
 * either side empty when open. Each date follows the service's rules.
 */
export const PartsParam = z
  .string()
  .max(MAX_PARTS * 80, `at most ${MAX_PARTS} parts`)
  .transform((text, ctx) => {
    const parts: { start_date?: string; end_date?: string }[] = [];
    for (const [i, pair] of text.split(',').entries()) {
      const sides = pair.split('~');
      if (sides.length !== 2) {
        ctx.addIssue({ code: 'custom', message: `part ${i + 1} must be start~end (either side may be empty)` });
        return z.NEVER;
      }
      const part: { start_date?: string; end_date?: string } = {};
      for (const [side, value] of [['start_date', sides[0]!], ['end_date', sides[1]!]] as const) {
        if (value === '') continue;
        const date = UtcDateString.safeParse(value);
        if (!date.success) {
          ctx.addIssue({ code: 'custom', message: `part ${i + 1} ${side}: ${date.error.issues[0]!.message}` });
          return z.NEVER;
        }
        part[side] = value;
      }
      parts.push(part);
    }
    if (parts.length > MAX_PARTS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_PARTS} parts` });
      return z.NEVER;
    }
    return parts;
  });

export function formatParts(parts: { start_date?: string; end_date?: string }[]): string {
  return parts.map((p) => `${p.start_date ?? ''}~${p.end_date ?? ''}`).join(',');
}

const msOf = (date: string | undefined): number | undefined => {
  if (date === undefined) return undefined;
  const parsed = parseUtcDate(date);
  return parsed.ok ? parsed.instant.ms : undefined;
};

/**
 * Why `parts` cannot be the unfinished parts of this range, or null. Parts must lie inside the range and not
 * overlap (neighbours may share an instant): otherwise a crafted list of 128 open parts would make one
 * request ask the service for the whole history 128 times.
 */
function partsProblem(range: { start_date?: string; end_date?: string }, parts: { start_date?: string; end_date?: string }[]): string | null {
  const lo = msOf(range.start_date) ?? -Infinity;
  const hi = msOf(range.end_date) ?? Infinity;
  const spans = parts
    .map((p) => ({ from: msOf(p.start_date) ?? -Infinity, to: msOf(p.end_date) ?? Infinity }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  for (const [i, span] of spans.entries()) {
    if (span.from < lo || span.to > hi) return 'every part must lie inside start_date..end_date';
    if (span.from > span.to) return 'a part ends before it starts';
    if (i > 0 && spans[i - 1]!.to > span.from) return 'parts must not overlap';
  }
  return null;
}

/** Query of /api/batches/stream: the range, or the parts of it still to fetch after an interruption. */
export const StreamQuerySchema = RangeQuerySchema.extend({ parts: PartsParam.optional() })
  .strict()
  .superRefine((query, ctx) => {
    if (!query.parts) return;
    const problem = partsProblem(query, query.parts);
    if (problem) ctx.addIssue({ code: 'custom', path: ['parts'], message: problem });
  });
