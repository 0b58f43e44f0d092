import 'server-only';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Batch } from '../../contract';
import { exportRow, type ExportContext, type ExportColumn } from '../../export/columns';
import { addViewSheet, startDataSheet } from '../../export/xlsx';
import { deferSheetLinks, drained } from '../../export/xlsx-streaming';

/** The first batches (in the order to write), how to ask for the next ones, how to stop asking. */
type Source = { first: Batch[]; next: () => Promise<IteratorResult<Batch[]>>; stop: () => void };

/** What the View sheet says besides the context: the range asked for, and the targets in force for the crops written. */
type ViewOf = { organisation: string; from?: string; to?: string; targetsText: (crops: readonly string[]) => string };

/**
 * The workbook streamed as batches arrive: exceljs's WorkbookWriter commits every row as it is written (no
 * shared strings, so nothing grows with the rows but the list of hyperlinks, kept as their targets until the
 * sheet ends: see xlsx-streaming.ts), and waits for zlib to take the rows and for the response to drain
 * before the next batches, so a slow download holds back the service rather than filling memory. The next
 * batches are asked for before these are written. A failure midway aborts the
 * download, never ending it short with a workbook that looks whole.
 */
export function xlsxStream(
  source: Source,
  columns: readonly ExportColumn[],
  ctx: ExportContext,
  view: ViewOf,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.created = new Date();
  const write = async () => {
    const data = startDataSheet(workbook, columns, ctx, null);
    const links = deferSheetLinks(data.sheet);
    let batches = 0;
    // The crops written, whose targets the View sheet lists (a few dozen, whatever the rows).
    const crops = new Set<string>();
    for (let chunk: Batch[] | null = source.first; chunk;) {
      // Only what the cells need (a table Row also parses numbers and builds a search text).
      for (const batch of chunk) {
        data.add(exportRow(batch));
        if (batch.crop_type !== null) crops.add(batch.crop_type);
      }
      batches += chunk.length;
      if (signal.aborted) throw signal.reason;
      const ahead = source.next();
      ahead.catch(() => undefined); // awaited below; unobserved only when the download was cancelled meanwhile
      await drained(data.sheet, signal);
      if (out.writableNeedDrain) await once(out, 'drain', { signal });
      const result = await ahead;
      chunk = result.done ? null : result.value;
    }
    data.sheet.commit();
    await links?.write(signal);
    const { organisation, from, to, targetsText } = view;
    addViewSheet(workbook, {
      organisation,
      from,
      to,
      ...ctx,
      targetsText: targetsText([...crops]),
      columns,
      batches,
      made: Date.now(),
      incomplete: null,
    });
    await workbook.commit();
  };
  write().catch((error) => {
    source.stop();
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
