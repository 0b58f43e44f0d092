import 'server-only';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { BatchPage } from '../batch-api';
import { exportRow, type ExportContext, type ExportColumn } from '../export/columns';
import { addViewSheet, startDataSheet } from '../export/xlsx';

/** The first page (null: none), how to ask for the next, how to stop asking. */
type Source = { first: BatchPage | null; next: () => Promise<IteratorResult<BatchPage>>; stop: () => void };

/**
 * The workbook streamed as pages arrive: exceljs's WorkbookWriter commits every row as it is written (no
 * shared strings, so nothing grows with the rows but the list of hyperlinks), and waits for the response to
 * drain before the next page, so a slow download holds back the service rather than filling memory. The next
 * page is asked for before this one is written (`next` is already in flight). A failure midway aborts the
 * download, never ending it short with a workbook that looks whole.
 */
export function xlsxStream(source: Source, columns: readonly ExportColumn[], ctx: ExportContext, range: { from?: string; to?: string }, signal: AbortSignal): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.created = new Date();
  const write = async () => {
    const data = startDataSheet(workbook, columns, ctx, null);
    let batches = 0;
    let page: BatchPage | null = source.first;
    while (page) {
      // Only what the cells need (a table Row also parses numbers and builds a search text).
      for (const batch of page.data) data.add(exportRow(batch));
      batches += page.data.length;
      if (signal.aborted) throw signal.reason;
      const ahead = source.next();
      if (out.writableNeedDrain) await once(out, 'drain', { signal });
      const result = await ahead;
      page = result.done ? null : result.value;
    }
    data.sheet.commit();
    addViewSheet(workbook, { ...range, ...ctx, columns, batches, made: Date.now(), incomplete: null });
    await workbook.commit();
  };
  write().catch((error) => {
    source.stop();
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
