import { OrderedLoad } from '@/lib/batch-api';
import { BATCH_FIELDS, dateRange, type Batch, type DateRange } from '@/lib/contract';
import { csvRow, csvRows } from '@/lib/csv';
import { EXPORT_COLUMNS, type ExportColumn } from '@/lib/export/columns';
import { attachmentHeader, exportFileName } from '@/lib/export/file-name';
import { UTC } from '@/lib/explorer/zones';
import { LANGUAGE_COOKIE, readerLocale } from '@/lib/i18n/languages';
import { exportWords } from '@/lib/export/strings';
import { targetLines } from '@/lib/explorer/targets/target-lines';
import { formatsFor } from '@/lib/i18n/formats';
import { MESSAGES } from '@/lib/i18n/messages';
import { ExportQuerySchema, type ExportQuery } from '@/lib/server/batches/export-query';
import { untilShutdown } from '@/lib/server/health/shutdown';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore, TARGETS_SETTING } from '@/lib/server/settings';
import { getConfig } from '@/lib/server/config';
import type { Actor } from '@/lib/server/auth/actor';
import type { SessionCookies } from '@/lib/server/auth/sessions';
import { translatorFor } from '@/lib/server/http/reader-locale';
import { asRangeLoad } from '@/lib/server/load-limits';
import { upstreamFor } from '@/lib/server/org/upstream';
import { xlsxStream } from '@/lib/server/batches/xlsx-export';

const TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function fileHeaders(query: ExportQuery, organisation: string) {
  // The CSV is the service's fields raw, named as the page's CSV (API fields) is.
  const filename = exportFileName(
    { organisation, from: query.start_date, to: query.end_date },
    query.format === 'xlsx' ? 'xlsx' : 'api-csv',
  );
  return { 'content-type': TYPES[query.format], 'content-disposition': attachmentHeader(filename) };
}

/** The header and the first chunk at once, then a chunk a pull; a failure errors the stream (the download aborts). */
function csvStream(chunks: AsyncGenerator<Batch[]>, first: Batch[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(BATCH_FIELDS) + csvRows(first, BATCH_FIELDS)));
    },
    async pull(controller) {
      const result = await chunks.next();
      if (result.done) return controller.close();
      controller.enqueue(encoder.encode(csvRows(result.value, BATCH_FIELDS)));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

const columnsOf = (ids: ExportQuery['columns']): ExportColumn[] =>
  ids ? ids.map((id) => EXPORT_COLUMNS.find((c) => c.id === id)!) : [...EXPORT_COLUMNS];

/**
 * Every batch of the range in creation order (ascending creation instant, ties by batch_id): CSV with the
 * service's fields (the default), or a workbook of the table's columns (`format=xlsx`, `zone=`, `columns=`) in
 * the reader's language. Time parts of the range are fetched in parallel and written in order (OrderedLoad):
 * only a window of parts ahead of the one being written is held, so memory stays bounded whatever the range.
 * The first page is fetched before answering so that bad input, a refused session or an outage still get
 * their status; a failure after that aborts the download rather than ending it short, and a cancelled
 * download stops the requests in flight. It counts as one of the session's and the organisation's range loads
 * until the download ends (lib/server/load-limits: over them, 429 with Retry-After).
 */
export const GET = route({ auth: true, query: ExportQuerySchema }, async ({ query, actor, request, cookies }) =>
  asRangeLoad(actor, request.signal, () => exportRange(query, actor, request, cookies)),
);

async function exportRange(
  query: ExportQuery,
  actor: Actor,
  request: Request,
  cookies: SessionCookies,
): Promise<Response> {
  const range: DateRange = dateRange(query.start_date, query.end_date);
  const load = new OrderedLoad(await upstreamFor(actor.organisation), range, {
    concurrency: getConfig().concurrency,
    signal: untilShutdown(request.signal),
  });
  const chunks = load.chunks();
  const first = await chunks.next();
  const firstRows = first.done ? [] : first.value;
  if (query.format === 'csv')
    return new Response(csvStream(chunks, firstRows), { headers: fileHeaders(query, actor.organisation.name) });

  const reader = readerLocale(request.headers.get('accept-language'), cookies.get(LANGUAGE_COOKIE));
  // The targets come from the settings store; if it fails, the load is stopped before the error answers.
  const { value: targets } = await settingsStore()
    .get(actor.organisation.id, TARGETS_SETTING)
    .catch(async (error: unknown) => {
      await chunks.return(undefined);
      throw error;
    });
  const ctx = { zone: query.zone ?? UTC, targets, words: exportWords(MESSAGES[reader.language]) };
  const source = { first: firstRows, next: () => chunks.next(), stop: () => void chunks.return(undefined) };
  // The targets in the reader's words, as the page's own View sheet writes them.
  const t = translatorFor(reader, 'print'),
    f = formatsFor(reader.locale);
  const view = {
    organisation: actor.organisation.name,
    from: query.start_date,
    to: query.end_date,
    targetsText: (crops: readonly string[]) => targetLines(targets, crops, t, f).join('; '),
  };
  const stream = xlsxStream(source, columnsOf(query.columns), ctx, view, request.signal);
  return new Response(stream, { headers: fileHeaders(query, actor.organisation.name) });
}

/** The checks of GET (session, query) and its headers, without asking the service anything. */
export const HEAD = route(
  { auth: true, query: ExportQuerySchema },
  async ({ query, actor }) => new Response(null, { headers: fileHeaders(query, actor.organisation.name) }),
);

export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET, HEAD });
