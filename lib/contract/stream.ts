import * as z from '../zod';
import { BatchSchema, type Batch } from './batch';

/** Newline-delimited JSON, as a text type so that Next's compression takes it (see the stream route). */
export const NDJSON_TYPE = 'text/x-ndjson; charset=utf-8';

/** What the browser needs to explain a failure: our status, our sentence, and the service's advice in seconds. */
export const ProblemSchema = z.object({
  status: z.int(),
  detail: z.string(),
  retryAfterS: z.nullable(z.int().check(z.positive())),
});
export type Problem = z.infer<typeof ProblemSchema>;

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
export type StreamLine = z.infer<typeof StreamLineSchema>;

/**
 * The same lines with each batch checked only for its id. The server has already checked every batch of the
 * service against BatchSchema; checking them again costs the browser more than parsing the JSON (112 ms
 * against 91 ms per 20,000 batches), while this shape check costs 9 ms.
 */
const StreamLineShape = streamLineSchema(
  z.custom<Batch>((v) => typeof v === 'object' && v !== null && typeof (v as { batch_id?: unknown }).batch_id === 'string'),
);

export function encodeStreamLine(line: StreamLine): string {
  return `${JSON.stringify(line)}\n`;
}

/** A line that is not JSON, or not one of the three kinds of line. */
export class BrokenStreamLine extends Error {}

/** Reads one line as the browser does (see StreamLineShape); throws BrokenStreamLine. */
export function parseStreamLine(text: string): StreamLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BrokenStreamLine(`not JSON: ${JSON.stringify(text.slice(0, 40))}`);
  }
  const line = StreamLineShape.safeParse(value);
  if (!line.success) throw new BrokenStreamLine('not a line of the batch stream');
  return line.data;
}
