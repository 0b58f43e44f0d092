import { parseUtcDate } from '../utc-date';
import type { DateRange } from './range';

/**
 * The parts of a range still to fetch after a stream was interrupted, as the stream's `remaining` names them
 * and the retry's `parts=` sends them back: `start~end` pairs joined by commas, either side empty when open.
 */
export const PAIRS = ',';
export const SIDES = '~';
/** The longest date the service's rules accept is 35 characters (nine fraction digits and `+00:00`). */
export const MAX_PART_CHARS = 2 * 35 + 1;

export function formatParts(parts: readonly DateRange[]): string {
  return parts.map((p) => `${p.start_date ?? ''}${SIDES}${p.end_date ?? ''}`).join(PAIRS);
}

const msOf = (date: string | undefined): number | undefined => {
  if (date === undefined) return undefined;
  const parsed = parseUtcDate(date);
  return parsed.ok ? parsed.instant.ms : undefined;
};

/**
 * Why `parts` cannot be the unfinished parts of `range`, or null. Parts must lie inside the range, have a
 * width (a load never leaves a part that starts where it ends, unless the range itself is one instant) and not
 * overlap (neighbours may share an instant): otherwise a crafted list of parts would make one request ask the
 * service for the same batches again and again.
 */
export function partsProblem(range: DateRange, parts: readonly DateRange[]): string | null {
  const lo = msOf(range.start_date) ?? -Infinity;
  const hi = msOf(range.end_date) ?? Infinity;
  const spans = parts
    .map((p) => ({ from: msOf(p.start_date) ?? -Infinity, to: msOf(p.end_date) ?? Infinity }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  for (const [i, span] of spans.entries()) {
    if (span.from < lo || span.to > hi) return 'every part must lie inside start_date..end_date';
    if (span.from > span.to) return 'a part ends before it starts';
    if (span.from === span.to && (spans.length > 1 || lo !== hi)) return 'a part must not start where it ends';
    if (i > 0 && spans[i - 1]!.to > span.from) return 'parts must not overlap';
  }
  return null;
}
