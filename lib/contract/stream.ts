import type { Batch } from './batch';

/** Newline-delimited JSON, as a text type so that Next's compression takes it (see the stream route). */
export const NDJSON_TYPE = 'text/x-ndjson; charset=utf-8';

/** What the browser needs to explain a failure: our status, our sentence, and the service's advice in seconds. */
export type Problem = { status: number; detail: string; retryAfterS: number | null };

/** One line of `/api/batches/stream` (StreamLineSchema in schemas.ts checks the server's output in tests). */
export type StreamLine =
  /**
   * Batches as their pages arrive, in no particular order, each batch of the range once; `pending` names the
   * parts whose batches have not all been sent with this line and those before it: what is missing when the
   * stream breaks after this line (the page says so, and a retry fetches those parts, `parts=`).
   */
  | { batches: Batch[]; pending?: string }
  /** The last line of a complete range: `count` batches in all. */
  | { done: true; count: number }
  /** The last line of an interrupted range: why, and the parts still to fetch (`parts=` of the retry). */
  | { error: Problem; remaining: string };

export function encodeStreamLine(line: StreamLine): string {
  return `${JSON.stringify(line)}\n`;
}

/** A line that is not JSON, or not one of the three kinds of line. */
export class BrokenStreamLine extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (o: Record<string, unknown>, allowed: readonly string[]) =>
  Object.keys(o).every((k) => allowed.includes(k));
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);

/**
 * The line's shape, with each batch checked only for its id. The server has already checked every batch of the
 * service against BatchSchema; checking them again costs the browser more than parsing the JSON (112 ms against
 * 91 ms per 20,000 batches), while this check costs almost nothing. Written by hand: the browser carries no zod.
 */
function lineOf(v: unknown): StreamLine | null {
  if (!isObject(v)) return null;
  if ('batches' in v) {
    const { batches, pending } = v;
    if (
      !onlyKeys(v, ['batches', 'pending']) ||
      !Array.isArray(batches) ||
      (pending !== undefined && typeof pending !== 'string')
    )
      return null;
    for (const b of batches) if (!isObject(b) || typeof b.batch_id !== 'string') return null;
    return v as StreamLine;
  }
  if ('done' in v)
    return onlyKeys(v, ['done', 'count']) && v.done === true && isInt(v.count) && v.count >= 0
      ? (v as StreamLine)
      : null;
  if ('error' in v) {
    const { error, remaining } = v;
    if (!onlyKeys(v, ['error', 'remaining']) || typeof remaining !== 'string' || !isObject(error)) return null;
    const { status, detail, retryAfterS } = error;
    if (
      !isInt(status) ||
      typeof detail !== 'string' ||
      !(retryAfterS === null || (isInt(retryAfterS) && retryAfterS > 0))
    )
      return null;
    return { error: { status, detail, retryAfterS }, remaining };
  }
  return null;
}

/** Reads one line as the browser does (see lineOf); throws BrokenStreamLine. */
export function parseStreamLine(text: string): StreamLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BrokenStreamLine(`not JSON: ${JSON.stringify(text.slice(0, 40))}`);
  }
  const line = lineOf(value);
  if (!line) throw new BrokenStreamLine('not a line of the batch stream');
  return line;
}
