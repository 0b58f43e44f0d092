import { formatsFor } from '../i18n/formats';

/** How a reader's spreadsheet splits a CSV line and reads a decimal: `;` and `,` where the decimal mark is `,` (de-DE, nl-NL). */
export type CsvDialect = { separator: ',' | ';'; decimal: '.' | ',' };

export const API_DIALECT: CsvDialect = { separator: ',', decimal: '.' };

export function dialectFor(locale: string): CsvDialect {
  return formatsFor(locale).decimalMark === ',' ? { separator: ';', decimal: ',' } : API_DIALECT;
}

/** Excel on Windows reads CSV as the system's code page unless the file starts with a byte-order mark. */
export const BOM = '\uFEFF';
