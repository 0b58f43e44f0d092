/**
 * RFC 4180 CSV shared by the server export and the browser exports: CRLF line ends, quotes doubled, and text
 * a spreadsheet would run as a formula neutralized with a leading apostrophe (OWASP). The separator is `,`
 * unless a reader's spreadsheet wants another (`;` where the decimal mark is `,`: see lib/export/dialect.ts).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Quotes a field when it holds the separator, a quote or a line break; nothing else is changed. */
export function csvField(text: string, separator = ','): string {
  const needsQuotes = text.includes(separator) || /["\r\n]/.test(text);
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A value as a field: text that a spreadsheet would run gets its apostrophe; numbers are written as they are. */
export function csvCell(value: unknown, separator = ','): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return csvField(text, separator);
}

export function csvRow(values: readonly unknown[], separator = ','): string {
  return `${values.map((v) => csvCell(v, separator)).join(separator)}\r\n`;
}

export function csvRows<T extends object>(rows: readonly T[], fields: readonly (keyof T)[]): string {
  let out = '';
  for (const row of rows) out += csvRow(fields.map((f) => row[f]));
  return out;
}
