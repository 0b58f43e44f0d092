import type { Workbook } from 'exceljs';
import type { ExportColumn, ExportContext, ExportRow } from './columns';
import type { ViewSheetOf } from './view-table';
import { addViewSheet, startDataSheet } from './xlsx';

/** A view's table as a workbook holds it: its rows in order, its columns, the context and the View sheet's description. */
export type TableWorkbook = {
  rows: readonly ExportRow[];
  columns: readonly ExportColumn[];
  ctx: ExportContext;
  view: ViewSheetOf;
  /** The INCOMPLETE note, or null when every batch of the range arrived. */
  note: string | null;
  /** When the file is made (ms). */
  made: number;
};

/**
 * The Excel workbook of a view's table: the data sheet and the View sheet, in the page's Export menu and in a
 * scheduled report alike (exceljs is the caller's: the page loads it on demand).
 */
export function writeTableWorkbook(workbook: Pick<Workbook, 'addWorksheet'>, t: TableWorkbook): void {
  const data = startDataSheet(workbook, t.columns, t.ctx, t.note);
  for (const r of t.rows) data.add(r);
  addViewSheet(workbook, {
    ...t.view,
    ...t.ctx,
    columns: t.columns,
    batches: t.rows.length,
    made: t.made,
    incomplete: t.note,
  });
}
