import { parse } from 'csv-parse/sync';

/**
 * Reads CSV the way a strict RFC 4180 consumer would, with a parser that is not ours (csv-parse), so an
 * export is checked by someone other than its writer. Records end in CRLF only; a stray quote or a record
 * with a different number of fields is an error, not something to guess around; every field is a string.
 */
export function readCsv(text: string, delimiter: ',' | ';' = ','): string[][] {
  // Our writer ends every record, the last too, with CRLF: text that does not was cut off somewhere.
  if (text !== '' && !text.endsWith('\r\n')) throw new Error(`CSV does not end with CRLF: ${JSON.stringify(text.slice(-80))}`);
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
      if (!quoting && /[\r\n]/.test(value)) throw new Error(`unquoted line break in record ${records + 1}, field ${column}: ${JSON.stringify(value)}`);
      return value;
    },
  });
}
