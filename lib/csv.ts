/**
 * RFC 4180 CSV shared by the server export and the browser exports: CRLF line ends, quotes doubled, and text
 * a spreadsheet would run as a formula neutralized with an apostrophe (OWASP). The separator is `,` unless a
 * reader's spreadsheet wants another (`;` where the decimal mark is `,`: see lib/export/dialect.ts).
 *
 * A spreadsheet may open the file with the other separator (a `,` file in a German Excel splits on `;`), and
 * then honours a quote only at the very start of a cell: a quoted `Tray;=1+1` becomes the cells `…"Tray` and
 * `=1+1"`, and a line break inside quotes starts a row. So every field holding either separator, a tab, a
 * quote or a line break is quoted, and text is neutralized wherever any reader could start a cell: at its
 * start and after each `,` `;` tab, CR or LF in it (quotes there skipped, as a reader may take them for an
 * opening one). A plain number keeps its sign, except first in a row: there a reader splitting on the other
 * separator reads on into the next fields (`-1,2+cmd|…` is a formula where `,` is the decimal mark).
 */

/** What makes a field quoted, whichever separator the file uses. */
const NEEDS_QUOTES = /[,;\t"\r\n]/;
/** After these a spreadsheet may start a new cell or row, whatever separator it was told. */
const CELL_BREAK = /[,;\t\r\n]/g;
/** A cell a spreadsheet would run: =, +, -, @, tab or CR first (quotes before it skipped)... */
const FORMULA_START = /"*[=+\-@\t\r]/y;
/** ...unless the whole field is a plain number. Inside a field none is spared: the cell a reader splits out
 * there runs on to its own separator, past any `,` `;` or closing quote it does not split on. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Quotes a field when it holds `,`, `;`, a tab, a quote or a line break; nothing else is changed. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Whether a cell starting at `at` in `text` would be run as a formula; `leading`: first in its row. */
function runnable(text: string, at: number, leading = false): boolean {
  FORMULA_START.lastIndex = at;
  return FORMULA_START.test(text) && (leading || at > 0 || !PLAIN_NUMBER.test(text));
}

/**
 * `text` with an apostrophe wherever a cell a spreadsheet could split out of it would start like a formula;
 * `leading`: the first field of its row, where even a plain number may not start with a sign.
 */
export function neutralized(text: string, leading = false): string {
  let out = runnable(text, 0, leading) ? `'` : '';
  let from = 0;
  for (const { index } of text.matchAll(CELL_BREAK)) {
    out += text.slice(from, index + 1);
    from = index + 1;
    if (runnable(text, from)) out += `'`;
  }
  return out + text.slice(from);
}

/**
 * A value as a field: text that a spreadsheet would run gets its apostrophes; numbers are written as they are
 * (first in a row, a negative one too, as text: see above). `leading`: the first field of its row.
 */
export function csvCell(value: unknown, leading = false): string {
  if (value === null || value === undefined) return '';
  return csvField(typeof value === 'string' ? neutralized(value, leading) : numberText(String(value), leading));
}

/** A number we wrote (`-2,5` in the reader's notation) as a field; `leading`: the first of its row. */
export function csvNumber(text: string, leading = false): string {
  return csvField(numberText(text, leading));
}

const numberText = (text: string, leading: boolean) => (leading && /^[-+]/.test(text) ? `'${text}` : text);

export function csvRow(values: readonly unknown[], separator = ','): string {
  return `${values.map((v, i) => csvCell(v, i === 0)).join(separator)}\r\n`;
}

export function csvRows<T extends object>(rows: readonly T[], fields: readonly (keyof T)[]): string {
  let out = '';
  for (const row of rows) out += csvRow(fields.map((f) => row[f]));
  return out;
}
