import type { CellValue as XlsxValue, Row as XlsxRow, Workbook, Worksheet } from 'exceljs';
import { safeHttpUrl } from '../safe-url';
import {
  wallClockIn,
  type CellType,
  type CellValue,
  type ExportColumn,
  type ExportContext,
  type ExportRow,
} from './columns';
import { viewLines, type ExportView } from './view-sheet';

/*
 * The workbook, the same for the browser's in-memory Workbook and the server's streaming WorkbookWriter: both
 * are driven through addWorksheet and addRow, and a row is committed as soon as it is written (a no-op in
 * memory; in the stream it leaves memory).
 */
type AnyWorkbook = Pick<Workbook, 'addWorksheet'>;

const NUM_FMT: Partial<Record<CellType, string>> = { date: 'yyyy-mm-dd hh:mm:ss', number: '0.00', int: '0' };
const LINK_FONT = { color: { argb: 'FF0563C1' }, underline: true } as const;

/** One cell: numbers are numbers, a date is the zone's wall clock (what Excel shows), links only when http(s). */
export function xlsxValue(col: ExportColumn, value: CellValue, ctx: ExportContext): XlsxValue {
  if (value === null) return null;
  switch (col.type) {
    case 'date':
      return new Date(wallClockIn(ctx.zone)(value as number));
    case 'number':
      return Number(value);
    case 'yes-no':
      return value ? ctx.words.yes : ctx.words.no;
    case 'link': {
      const href = safeHttpUrl(value as string);
      return href ? { text: value as string, hyperlink: href } : (value as string);
    }
    default:
      // Text stays text: an xlsx string cell is never run as a formula, so it needs no apostrophe.
      return value as XlsxValue;
  }
}

/**
 * Starts the data sheet: the INCOMPLETE note first when given, the header frozen and filterable, columns typed
 * and sized. Returns how to add a row (committed at once).
 */
export function startDataSheet(
  workbook: AnyWorkbook,
  columns: readonly ExportColumn[],
  ctx: ExportContext,
  note: string | null,
) {
  const headerRow = note ? 2 : 1;
  // Printed (or saved as PDF for a meeting) landscape, every column on the page's width.
  const sheet = workbook.addWorksheet(ctx.words.sheets.data, {
    views: [{ state: 'frozen', ySplit: headerRow }],
    pageSetup: {
      orientation: 'landscape',
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 0,
      printTitlesRow: `${headerRow}:${headerRow}`,
    },
  });
  // Wide enough for the bold header (a header is about 1.2 characters wide per letter), else the column's own.
  const width = (c: ExportColumn) => Math.max(c.width, Math.ceil(c.header(ctx).length * 1.2) + 2);
  sheet.columns = columns.map((c) => ({
    key: c.id,
    width: width(c),
    style: NUM_FMT[c.type] ? { numFmt: NUM_FMT[c.type] } : {},
  }));
  if (note) {
    const row = sheet.addRow([note]);
    row.font = { bold: true, color: { argb: 'FFC00000' } };
    row.commit();
  }
  const header = sheet.addRow(columns.map((c) => c.header(ctx)));
  header.font = { bold: true };
  // Over numbers and dates (right-aligned by spreadsheets), the header is too.
  columns.forEach((c, i) => {
    if (NUM_FMT[c.type]) header.getCell(i + 1).alignment = { horizontal: 'right' };
  });
  header.commit();
  if (columns.length > 0)
    sheet.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: columns.length } };
  const links = columns.flatMap((c, i) => (c.type === 'link' ? [i + 1] : []));
  return {
    sheet,
    add(row: ExportRow): XlsxRow {
      const added = sheet.addRow(columns.map((c) => xlsxValue(c, c.value(row, ctx), ctx)));
      for (const i of links) {
        const cell = added.getCell(i);
        if (typeof cell.value === 'object' && cell.value !== null) cell.font = LINK_FONT;
      }
      added.commit();
      return added;
    },
  };
}

/** The second sheet: the view the data was taken from. */
export function addViewSheet(workbook: AnyWorkbook, view: ExportView): Worksheet {
  const sheet = workbook.addWorksheet(view.words.sheets.view);
  sheet.columns = [{ width: 18 }, { width: 90 }];
  for (const line of viewLines(view)) {
    const row = sheet.addRow(line);
    row.getCell(1).font = { bold: true };
    row.commit();
  }
  return sheet;
}
