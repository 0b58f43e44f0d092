/** How a reader's spreadsheet splits a CSV line and reads a decimal: `;` and `,` where the decimal mark is `,` (de-DE, nl-NL). */
export type CsvDialect = { separator: ',' | ';'; decimal: '.' | ',' };

export const API_DIALECT: CsvDialect = { separator: ',', decimal: '.' };

export function dialectFor(locale: string | undefined): CsvDialect {
  let decimal = '.';
  try {
    decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  } catch {
    // An unknown locale tag: the plain dialect.
  }
  return decimal === ',' ? { separator: ';', decimal: ',' } : API_DIALECT;
}

/** Excel on Windows reads CSV as the system's code page unless the file starts with a byte-order mark. */
export const BOM = '\uFEFF';
