import { parse } from 'csv-parse/sync';

/**
 * Reads CSV the way a strict RFC 4180 consumer would, with a parser that is not ours (csv-parse), so an
 * export is checked by someone other than its writer. Records end in CRLF only; a stray quote or a record
 * with a different number of fields is an error, not something to guess around; every field is a string.
 */
export function readCsv(text: string, delimiter: ',' | ';' = ','): string[][] {
  // Our writer ends every record, the last too, with CRLF: text that does not was cut off somewhere.
  if (text !== '' && !text.endsWith('\r\n'))
    throw new Error(`CSV does not end with CRLF: ${JSON.stringify(text.slice(-80))}`);
  return parse(text, {
    delimiter,
    record_delimiter: '\r\n',
    relax_quotes: false,
    relax_column_count: false,
    skip_empty_lines: false,
    bom: false,
    columns: false,
    trim: false,
    // csv-parse keeps a lone CR or LF inside an unquoted field; RFC 4180 (and many spreadsheets, which end
    // the row there) do not, so such a field is an error. The value itself stays the string it was.
    cast: (value, { quoting, records, column }) => {
      if (!quoting && /[\r\n]/.test(value))
        throw new Error(`unquoted line break in record ${records + 1}, field ${column}: ${JSON.stringify(value)}`);
      return value;
    },
  });
}

/**
 * Every cell a spreadsheet could make of `text` when it splits on `separator`, whatever it was meant to be
 * split on: csv-parse told to ignore quotes (a reader honours a quote only at the very start of a cell, so a
 * quoted field under the wrong separator comes apart where this reader splits it) and to end a row at any
 * line break. A cell a quote-honouring reader makes starts at one of these cells' starts, or just after its
 * opening quote: so each is given with its leading quotes dropped.
 */
export function cellsUnderAnySplit(text: string, separator: ',' | ';' | '\t'): string[] {
  const records: string[][] = parse(text.replace(/^\uFEFF/, ''), {
    delimiter: separator,
    record_delimiter: ['\r\n', '\n', '\r'],
    quote: false,
    relax_column_count: true,
    skip_empty_lines: false,
    bom: false,
    trim: false,
  });
  return records.flat().map((cell) => cell.replace(/^"+/, ''));
}

/** Whether a spreadsheet would run the cell: =, +, -, @, tab or CR first, and not a plain number. */
export const runsAsFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !/^-?[0-9]+([.,][0-9]+)?"?$/.test(cell);

/** Text a batch could hold to break a CSV or run in a spreadsheet split on either separator. */
export const HOSTILE_TEXTS = [
  'Tray;=1+1',
  'Tray,=1+1',
  'a;"=1+1',
  'a,"@SUM(A1)',
  "x;-2+3+cmd|' /C calc'!A0",
  'tab\t=1',
  'line\n+1',
  'cr\r@x',
  'a; =1',
  '=HYPERLINK("http://evil.example","click")',
  '+SUM(1;2)',
  'ok, -5',
  'ok; 7',
  '-2.50',
  '-1',
  '"=quoted',
  `a;-${'1'.repeat(50)}+cmd`,
];

/**
 * What a spreadsheet should show for a text cell, written out here rather than taken from lib/csv.ts: at
 * its start and after every `,` `;` tab, CR or LF (where a reader splitting on another separator, or
 * ignoring quotes, starts a cell), text that starts like a formula (quotes before it skipped) gets an
 * apostrophe (OWASP); a whole field that is a plain number such as -2.50 is left alone, unless it is the
 * first of its row (`leading`).
 */
export function shownCsvText(text: string, leading = false): string {
  const whole = /^-?[0-9]+(\.[0-9]+)?$/.test(text) && !leading;
  return text.replace(/(?<=^|[,;\t\r\n])(?="*[=+@\t\r-])/g, (_, at: number) => (at === 0 && whole ? '' : "'"));
}
