import type { BatchPage } from '@/lib/batch-api';
import { BATCH_FIELDS, exportFileName, type DateRange } from '@/lib/contract';
import { csvRow, csvRows } from '@/lib/csv';
import { RangeQuerySchema } from '@/lib/server/batch-query';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { clientFor } from '@/lib/server/upstream';

function csvHeaders(range: DateRange) {
  const filename = exportFileName(range.start_date, range.end_date);
  return { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` };
}

/**
 * Every batch of the range as CSV, one upstream page at a time. The first page is fetched before answering
 * so that bad input, a refused session or an outage still get their status; a failure after that aborts the
 * download rather than ending it short. The next page is always asked for as soon as a page arrives, while
 * this one is turned into CSV and sent: the service's latency and our own work overlap, and memory stays at
 * two pages.
 */
export const GET = route({ auth: true, query: RangeQuerySchema }, async ({ query, session, request }) => {
  const pages = clientFor(session).pages(query, { signal: request.signal });
  const fetchNext = () => {
    const next = pages.next();
    next.catch(() => undefined); // awaited by pull(); unobserved only when the download was cancelled
    return next;
  };
  let ahead: Promise<IteratorResult<BatchPage>> = fetchNext();
  await ahead;
  const encoder = new TextEncoder();
  let headerSent = false;

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvRow(BATCH_FIELDS)));
      }
      const result = await ahead;
      if (result.done) return controller.close();
      ahead = fetchNext();
      controller.enqueue(encoder.encode(csvRows(result.value.data, BATCH_FIELDS)));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });

  return new Response(stream, { headers: csvHeaders(query) });
});

/** The checks of GET (session, query) and its headers, without asking the service anything. */
export const HEAD = route({ auth: true, query: RangeQuerySchema }, async ({ query }) => new Response(null, { headers: csvHeaders(query) }));

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET, HEAD });
