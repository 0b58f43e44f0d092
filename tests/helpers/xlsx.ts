import { strFromU8, unzipSync } from 'fflate';
import readExcelFile from 'read-excel-file/node';

/**
 * Reads an xlsx back with readers that are not its writer's (exceljs): read-excel-file for the cells and their
 * types (numbers, dates from their number formats, text), fflate and the sheet's XML for what it does not
 * report (hyperlinks, formulas, number formats).
 */
export async function readXlsx(file: Buffer) {
  const sheets = await readExcelFile(file, { trim: false });
  const zip = unzipSync(new Uint8Array(file));
  const xml = (path: string) => (zip[path] ? strFromU8(zip[path]!) : '');
  const sheetXml = xml('xl/worksheets/sheet1.xml');
  const rels = xml('xl/worksheets/_rels/sheet1.xml.rels');
  const targets = new Map(
    [...rels.matchAll(/<Relationship [^>]*?Id="([^"]+)"[^>]*?Target="([^"]+)"/g)].map((m) => [
      m[1]!,
      unescapeXml(m[2]!),
    ]),
  );
  /** Cell reference (`N5`) → hyperlink target. */
  const hyperlinks = new Map(
    [...sheetXml.matchAll(/<hyperlink ref="([A-Z]+\d+)" r:id="([^"]+)"/g)].map((m) => [
      m[1]!,
      targets.get(m[2]!) ?? '',
    ]),
  );
  return {
    sheets: sheets.map((s) => ({ name: s.sheet, rows: s.data as unknown[][] })),
    hyperlinks,
    formulas: (sheetXml.match(/<f[ >]/g) ?? []).length,
    numFmts: [...xml('xl/styles.xml').matchAll(/formatCode="([^"]+)"/g)].map((m) => unescapeXml(m[1]!)),
    frozen: /<pane [^>]*state="frozen"/.test(sheetXml),
    autoFilter: /<autoFilter ref="/.test(sheetXml),
  };
}

function unescapeXml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** `A`…`Z`, `AA`… for the 0-based column `i`. */
export function columnLetter(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
