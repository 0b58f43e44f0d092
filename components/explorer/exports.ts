'use client';

import { shownColumns, type ExportContext } from '@/lib/export/columns';
import { exportFileName, type ExportFileKind, type ExportFileView } from '@/lib/export/file-name';
import { dialectFor } from '@/lib/export/dialect';
import { rowsToReaderCsv } from '@/lib/export/reader-csv';
import type { ExportView } from '@/lib/export/view-sheet';
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
  view: Omit<ExportView, 'columns' | 'batches' | 'made' | 'incomplete' | keyof ExportContext>;
  /** The reader's locale: the CSV's separator and decimal mark. */
  locale: string;
  /** The organisation, range and crop the file names say. */
  file: ExportFileView;
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The workbook is made in the page; exceljs is loaded only when someone asks for one. */
async function exportXlsx(t: TableExport, columns: ReturnType<typeof shownColumns>, note: string | null) {
  const [{ default: ExcelJS }, { startDataSheet, addViewSheet }] = await Promise.all([import('exceljs'), import('@/lib/export/xlsx')]);
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const data = startDataSheet(workbook, columns, t.ctx, note);
  for (const r of t.rows) data.add(r);
  addViewSheet(workbook, { ...t.view, ...t.ctx, columns, batches: t.rows.length, made: Date.now(), incomplete: note });
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
