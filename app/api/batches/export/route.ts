import { BATCH_FIELDS, type BatchPage } from '@/lib/batch-api';
import { csvRow, csvRows } from '@/lib/csv';
import { RangeQuerySchema } from '@/lib/server/batch-query';
import { route } from '@/lib/server/route';
import { clientFor } from '@/lib/server/upstream';

function filename(range: { start_date?: string; end_date?: string }): string {
  const day = (d?: string) => (d ? d.slice(0, 10) : 'all');
  return `batches-${day(range.start_date)}-to-${day(range.end_date)}.csv`;
}

/**
 * Every batch of the range as CSV, one upstream page at a time (constant memory). The first page is
 * fetched before answering so that bad input, a refused session or an outage still get their status;
 * a failure after that aborts the download rather than ending it short.
 */
export const GET = route({ auth: true, query: RangeQuerySchema }, async ({ query, session, request }) => {
  const pages = clientFor(session).pages(query, { signal: request.signal });
  const first = await pages.next();
  const encoder = new TextEncoder();
  let pending: BatchPage | undefined = first.done ? undefined : first.value;
  let headerSent = false;

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvRow(BATCH_FIELDS)));
      }
      const page = pending ?? (await nextPage());
      pending = undefined;
      if (!page) return controller.close();
      controller.enqueue(encoder.encode(csvRows(page.data, BATCH_FIELDS)));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });

  async function nextPage(): Promise<BatchPage | undefined> {
    const result = await pages.next();
    return result.done ? undefined : result.value;
  }

  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename(query)}"`,
    },
  });
});
