import type { BatchPage } from '@/lib/batch-api';
import { BATCH_FIELDS, dateRange, exportFileName, type DateRange } from '@/lib/contract';
import { csvRow, csvRows } from '@/lib/csv';
import { EXPORT_COLUMNS, type ExportColumn } from '@/lib/export/columns';
import { UTC } from '@/lib/explorer/zones';
import { LANGUAGE_COOKIE, readerLocale } from '@/lib/i18n/languages';
import { exportWords } from '@/lib/export/strings';
import { MESSAGES } from '@/lib/i18n/messages';
import { ExportQuerySchema, type ExportQuery } from '@/lib/server/export-query';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { settingsStore, TARGETS_SETTING } from '@/lib/server/settings';
import { clientFor } from '@/lib/server/upstream';
import { xlsxStream } from '@/lib/server/xlsx-export';

const TYPES = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };

function fileHeaders(query: ExportQuery) {
  const filename = exportFileName(query.start_date, query.end_date).replace(/\.csv$/, `.${query.format}`);
  return { 'content-type': TYPES[query.format], 'content-disposition': `attachment; filename="${filename}"` };
}

function csvStream(pages: AsyncGenerator<BatchPage>, ahead: Promise<IteratorResult<BatchPage>>, fetchNext: () => Promise<IteratorResult<BatchPage>>) {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
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
}

const columnsOf = (ids: ExportQuery['columns']): ExportColumn[] => (ids ? ids.map((id) => EXPORT_COLUMNS.find((c) => c.id === id)!) : [...EXPORT_COLUMNS]);

/**
 * Every batch of the range, one upstream page at a time: CSV with the service's fields (the default), or a
 * workbook of the table's columns (`format=xlsx`, `zone=`, `columns=`) in the reader's language. The first
 * page is fetched before answering so that bad input, a refused session or an outage still get their status;
 * a failure after that aborts the download rather than ending it short. The next page is always asked for as
 * soon as a page arrives, while this one is written and sent: the service's latency and our own work
 * overlap, and memory stays at two pages.
 */
export const GET = route({ auth: true, query: ExportQuerySchema }, async ({ query, session, request, cookies }) => {
  const range: DateRange = dateRange(query.start_date, query.end_date);
  const pages = clientFor(session).pages(range, { signal: request.signal });
  const fetchNext = () => {
    const next = pages.next();
    next.catch(() => undefined); // awaited later; unobserved only when the download was cancelled
    return next;
  };
  const ahead = fetchNext();
  const first = await ahead;
  if (query.format === 'csv') return new Response(csvStream(pages, ahead, fetchNext), { headers: fileHeaders(query) });

  const { language } = readerLocale(request.headers.get('accept-language'), cookies.get(LANGUAGE_COOKIE));
  // The targets come from the settings store; if it fails, the page iterator is let go before the error answers.
  const { value: targets } = await settingsStore()
    .get(session.clientId, TARGETS_SETTING)
    .catch(async (error: unknown) => {
      await pages.return(undefined);
      throw error;
    });
  const ctx = { zone: query.zone ?? UTC, targets, words: exportWords(MESSAGES[language]) };
  const source = { first: first.done ? null : first.value, next: fetchNext, stop: () => void pages.return(undefined) };
  const stream = xlsxStream(source, columnsOf(query.columns), ctx, { from: query.start_date, to: query.end_date }, request.signal);
  return new Response(stream, { headers: fileHeaders(query) });
});

/** The checks of GET (session, query) and its headers, without asking the service anything. */
export const HEAD = route({ auth: true, query: ExportQuerySchema }, async ({ query }) => new Response(null, { headers: fileHeaders(query) }));

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET, HEAD });
