/**
 * RFC 4180 CSV shared by the server export and the browser export: CRLF line ends, quotes doubled,
 * and text a spreadsheet would run as a formula neutralized with a leading apostrophe (OWASP).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export function csvRows<T extends object>(rows: readonly T[], fields: readonly (keyof T)[]): string {
  let out = '';
  for (const row of rows) out += csvRow(fields.map((f) => row[f]));
  return out;
}
