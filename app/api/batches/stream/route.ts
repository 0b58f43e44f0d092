import { BatchApiError, RangeLoad, type Batch } from '@/lib/batch-api';
import { fromUpstream } from '@/lib/server/api-error';
import { formatParts, StreamQuerySchema } from '@/lib/server/batch-query';
import { getConfig } from '@/lib/server/config';
import { route } from '@/lib/server/route';
import { clientFor } from '@/lib/server/upstream';

/** Newline-delimited JSON. */
const NDJSON_TYPE = 'text/x-ndjson; charset=utf-8';

/** One line of the stream. The browser reads them with `lib/explorer/batch-stream.ts`. */
export type StreamLine =
  | { batches: Batch[] }
  | { done: true; count: number }
  | { error: { status: number; detail: string; retryAfterS: number | null }; remaining: string };

/**
 * Every batch of the range as NDJSON, fetched in parallel parts (see RangeLoad) and sent as each page
 * arrives, each batch once. The first chunk is awaited before answering, so bad input, a refused session
 * or an outage at the start get their own status. A failure later ends the stream with an `error` line
 * naming the parts still to fetch: the browser keeps what it has and asks for just those (`parts=`).
 */
export const GET = route({ auth: true, query: StreamQuerySchema }, async ({ query, session, request }) => {
  const { parts, ...range } = query;
  const load = new RangeLoad(clientFor(session), range, { concurrency: getConfig().concurrency, parts, signal: request.signal });
  const chunks = load.chunks();
  const first = await chunks.next();
  const encoder = new TextEncoder();
  const line = (value: StreamLine) => encoder.encode(JSON.stringify(value) + '\n');
  let pending: Batch[] | undefined = first.done ? undefined : first.value;
  let ended = first.done === true;

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending) {
        controller.enqueue(line({ batches: pending }));
        pending = undefined;
        return;
      }
      if (!ended) {
        try {
          const next = await chunks.next();
          if (!next.done) return controller.enqueue(line({ batches: next.value }));
        } catch (error) {
          if (request.signal.aborted) return controller.close();
          controller.enqueue(line(failureLine(error, formatParts(load.remaining()))));
          return controller.close();
        }
      }
      ended = true;
      controller.enqueue(line({ done: true, count: load.count }));
      controller.close();
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });

  return new Response(stream, {
    headers: {
      // A text type so that Next's compression takes it (it skips application/x-ndjson, unknown to mime-db,
      // and drops a Content-Encoding set here): 20,000 batches are 14 MB raw, about 2 MB gzipped, and Next
      // flushes the compressor after each line, so lines still arrive as they are sent.
      'content-type': NDJSON_TYPE,
      'cache-control': 'no-store',
      // Proxies such as nginx would otherwise hold the lines back until the end.
      'x-accel-buffering': 'no',
    },
  });
});

function failureLine(error: unknown, remaining: string): StreamLine {
  if (error instanceof BatchApiError) {
    const mapped = fromUpstream(error);
    const retryAfter = Number(mapped.headers['retry-after']);
    return { error: { status: mapped.status, detail: mapped.detail, retryAfterS: retryAfter > 0 ? retryAfter : null }, remaining };
  }
  console.error('batch stream failed', error);
  return { error: { status: 500, detail: 'The batch stream failed unexpectedly', retryAfterS: null }, remaining };
}
