import { csvCell, csvNumber } from '../csv';
import type { ExportRow } from './columns';
import { wallClockIn, wallClockText, type CellValue, type ExportColumn, type ExportContext } from './columns';
import { BOM, type CsvDialect } from './dialect';

/**
 * One cell for the reader's spreadsheet. Only text can be taken for a formula, so only text is neutralized:
 * numbers, dates and Yes/No are written by us and a spreadsheet reads them as what they are (a negative
 * number first in its row aside, see lib/csv.ts). `leading`: the first cell of its row.
 */
export function readerCell(
  col: ExportColumn,
  value: CellValue,
  ctx: ExportContext,
  dialect: CsvDialect,
  leading = false,
): string {
  if (value === null) return '';
  switch (col.type) {
    case 'date':
      return wallClockText(wallClockIn(ctx.zone)(value as number));
    case 'number':
    case 'int':
      return csvNumber(String(value).replace('.', dialect.decimal), leading);
    case 'yes-no':
      return value ? ctx.words.yes : ctx.words.no;
    default:
      return csvCell(value, leading);
  }
}

export function readerLine(cells: readonly string[], dialect: CsvDialect): string {
  return `${cells.join(dialect.separator)}\r\n`;
}

/**
 * The table as its reader's spreadsheet opens it: a byte-order mark (so Excel reads UTF-8), the locale's
 * separator and decimal mark, the shown columns with their headers, the shown rows in their order. A note
 * (the INCOMPLETE line) comes first when given.
 */
export function rowsToReaderCsv(
  rows: readonly ExportRow[],
  columns: readonly ExportColumn[],
  ctx: ExportContext,
  dialect: CsvDialect,
  note?: string,
): string {
  const parts: string[] = [BOM];
  if (note) parts.push(readerLine([csvCell(note, true)], dialect));
  parts.push(
    readerLine(
      columns.map((c, i) => csvCell(c.header(ctx), i === 0)),
      dialect,
    ),
  );
  for (const r of rows)
    parts.push(
      readerLine(
        columns.map((c, i) => readerCell(c, c.value(r, ctx), ctx, dialect, i === 0)),
        dialect,
      ),
    );
  return parts.join('');
}
