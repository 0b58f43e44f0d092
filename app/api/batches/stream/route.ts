import { RangeLoad } from '@/lib/batch-api';
import { encodeStreamLine, formatParts, NDJSON_TYPE, type Batch, type StreamLine } from '@/lib/contract';
import { StreamQuerySchema, type StreamQuery } from '@/lib/server/batches/batch-query';
import { asRangeLoad } from '@/lib/server/load-limits';
import type { Actor } from '@/lib/server/auth/actor';
import { getConfig } from '@/lib/server/config';
import { loggedProblemOf } from '@/lib/server/http/error-table';
import { untilShutdown } from '@/lib/server/health/shutdown';
import { countedChunks } from '@/lib/server/metrics/loads';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { upstreamFor } from '@/lib/server/org/upstream';

const STREAM_HEADERS = {
  // A text type so that Next's compression takes it (it skips application/x-ndjson, unknown to mime-db,
  // and drops a Content-Encoding set here): 20,000 batches are 14 MB raw, about 2 MB gzipped, and Next
  // flushes the compressor after each line, so lines still arrive as they are sent.
  'content-type': NDJSON_TYPE,
  'cache-control': 'no-store',
  // Proxies such as nginx would otherwise hold the lines back until the end.
  'x-accel-buffering': 'no',
};

/**
 * Every batch of the range as NDJSON (lines: lib/contract/stream.ts), fetched in parallel parts (see
 * RangeLoad) and sent as each page arrives, each batch once. The first chunk is awaited before answering, so
 * bad input, a refused session or an outage at the start get their own status. A failure later ends the
 * stream with an `error` line naming the parts still to fetch: the browser keeps what it has and asks for
 * just those (`parts=`); so does the end of a shutdown's grace period (SIGTERM): another instance resumes. It
 * counts as one of the session's and the organisation's range loads until it ends (lib/server/load-limits:
 * over them, 429 with Retry-After).
 */
export const GET = route({ auth: true, query: StreamQuerySchema }, async ({ query, actor, request }) =>
  asRangeLoad(actor, request.signal, () => streamRange(query, actor, request)),
);

async function streamRange(query: StreamQuery, actor: Actor, request: Request): Promise<Response> {
  const { parts, ...range } = query;
  const { concurrency, maxConcurrency } = getConfig();
  // Stopped when the browser leaves, or when a shutdown's grace period ends: then it ends with the error line.
  const load = new RangeLoad(await upstreamFor(actor.organisation), range, {
    concurrency,
    maxConcurrency,
    parts,
    signal: untilShutdown(request.signal),
  });
  const chunks = countedChunks(load, request.signal);
  const first = await chunks.next();
  const encoder = new TextEncoder();
  const line = (value: StreamLine) => encoder.encode(encodeStreamLine(value));
  let firstChunk: Batch[] | undefined = first.done ? undefined : first.value;
  let ended = first.done === true;

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (firstChunk) {
        controller.enqueue(line({ batches: firstChunk, pending: formatParts(load.remaining()) }));
        firstChunk = undefined;
        return;
      }
      if (!ended) {
        try {
          const next = await chunks.next();
          if (!next.done)
            return controller.enqueue(line({ batches: next.value, pending: formatParts(load.remaining()) }));
        } catch (error) {
          if (request.signal.aborted) return controller.close();
          controller.enqueue(
            line({ error: loggedProblemOf(error, 'batch stream failed'), remaining: formatParts(load.remaining()) }),
          );
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

  return new Response(stream, { headers: STREAM_HEADERS });
}

/** The checks of GET (session, query) and its headers, without asking the service anything. */
export const HEAD = route(
  { auth: true, query: StreamQuerySchema },
  async () => new Response(null, { headers: STREAM_HEADERS }),
);

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET, HEAD });
