'use client';

import { shownColumns, type ExportContext } from '@/lib/export/columns';
import { exportFileName, type ExportFileKind, type ExportFileView } from '@/lib/export/file-name';
import { dialectFor } from '@/lib/export/dialect';
import { rowsToReaderCsv } from '@/lib/export/reader-csv';
import type { ViewSheetOf } from '@/lib/export/view-table';
import { exportFile, exportName, incompleteNote, rowsToCsv, type ViewCompleteness } from '@/lib/explorer/export-csv';
import type { Row } from '@/lib/explorer/rows';
import { downloadText } from './download';

export type ExportFormat = ExportFileKind;

/** Everything an export of the table needs: its rows in order, its columns, the view and what its files name. */
export type TableExport = {
  rows: readonly Row[];
  hidden: ReadonlySet<string>;
  ctx: ExportContext;
  completeness: ViewCompleteness;
  view: ViewSheetOf;
  /** The reader's locale: the CSV's separator and decimal mark. */
  locale: string;
  /** The organisation, range and crop the file names say. */
  file: ExportFileView;
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The workbook is made in the page; exceljs is loaded only when someone asks for one. */
async function exportXlsx(t: TableExport, columns: ReturnType<typeof shownColumns>, note: string | null) {
  const [{ default: ExcelJS }, { writeTableWorkbook }] = await Promise.all([
    import('exceljs'),
    import('@/lib/export/table-workbook'),
  ]);
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  writeTableWorkbook(workbook, { rows: t.rows, columns, ctx: t.ctx, view: t.view, note, made: Date.now() });
  const buffer = await workbook.xlsx.writeBuffer();
  downloadText(exportName(exportFileName(t.file, 'xlsx'), t.completeness), buffer as ArrayBuffer, XLSX_TYPE);
}

/**
 * Excel and CSV hold what the table shows (rows, columns, order, headers with units, values typed); CSV (API
 * fields) holds the service's 18 fields raw, for scripts. Each says in its name and first line when the view's
 * batches did not all arrive.
 */
export async function exportTable(format: ExportFormat, t: TableExport): Promise<void> {
  const note = incompleteNote(t.completeness);
  const columns = shownColumns(t.hidden);
  if (format === 'xlsx') return exportXlsx(t, columns, note);
  if (format === 'csv') {
    const text = rowsToReaderCsv(t.rows, columns, t.ctx, dialectFor(t.locale), note ?? undefined);
    return downloadText(exportName(exportFileName(t.file, 'csv'), t.completeness), text, 'text/csv;charset=utf-8');
  }
  const file = exportFile(exportFileName(t.file, 'api-csv'), rowsToCsv(t.rows), t.completeness);
  downloadText(file.name, file.text, 'text/csv;charset=utf-8');
}
