import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { BATCH_FIELDS, type Batch } from '../../lib/contract';
import { readCsv } from '../helpers/csv';
import { columnLetter, readXlsx } from '../helpers/xlsx';
import { signInContext } from './signed-in';
import { EDGE, exportFrom, sandbox, signIn, status, walkApi } from './support';

/*
 * The Export menu's three files read back by readers that are not their writers (read-excel-file and the
 * sheet XML, csv-parse, LibreOffice once), for an American and a German browser: the table's rows, columns,
 * order and headers; typed cells; dates in the chosen zone; the locale's separator and decimal mark; hostile
 * text; links only when http(s). The edge organisation's 22 batches hold the hostile names and links.
 */

const ZONE = 'Europe/Berlin';
const PATH = `/batches?tz=${encodeURIComponent(ZONE)}&sort=batch_name&dir=asc&hide=cells`;

const LANGUAGES = {
  'en-US': {
    table: 'Batches table',
    menu: 'Export',
    xlsx: 'Excel (.xlsx)',
    csv: 'CSV',
    api: 'CSV (API fields)',
    comment: 'Comment',
    yes: 'Yes',
    no: 'No',
    separator: ',',
    decimal: '.',
    germinationMissed: 'germination',
    headers: [
      'Created (Europe/Berlin)',
      'Batch',
      'Crop',
      'Germination (%)',
      'Target (%)',
      'Off target',
      'Usable (%)',
      'Size CV (%)',
      'Median size (mm²)',
      'Images',
      'Warnings',
      'Germinated/tray',
      'Scanned by',
      'Analysis',
    ],
    view: { organisation: 'Organisation', zone: 'Time zone', complete: 'Data complete', columns: 'Columns' },
  },
  'de-DE': {
    table: 'Chargentabelle',
    menu: 'Exportieren',
    xlsx: 'Excel (.xlsx)',
    csv: 'CSV',
    api: 'CSV (API-Felder)',
    comment: 'Kommentar',
    yes: 'Ja',
    no: 'Nein',
    separator: ';',
    decimal: ',',
    germinationMissed: 'Keimrate',
    headers: [
      'Erstellt (Europe/Berlin)',
      'Charge',
      'Kultur',
      'Keimrate (%)',
      'Sollwert (%)',
      'Sollwert verfehlt',
      'Nutzbar (%)',
      'Größen-VK (%)',
      'Mediane Größe (mm²)',
      'Bilder',
      'Warnungen',
      'Gekeimt/Tray',
      'Gescannt von',
      'Analyse',
    ],
    view: { organisation: 'Organisation', zone: 'Zeitzone', complete: 'Daten vollständig', columns: 'Spalten' },
  },
} as const;

/** The batch's time on Berlin's clocks, worked out here with Intl (not with the app's zone code). */
const berlin = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
function wallClock(iso: string): string {
  const p = Object.fromEntries(berlin.formatToParts(Date.parse(iso)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}
const httpLink = (link: string | null) => !!link && /^https?:\/\//.test(link);
/** What a spreadsheet would run: the CSVs write it with an apostrophe first. */
const neutralized = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
/** Below the default 90 % germination target, the only target set: the Off target column names it. */
const missesGermination = (b: Batch) => b.avg_germination_rate !== null && Number(b.avg_germination_rate) < 90;

let batches: Map<string, Batch>;
test.beforeAll(async () => {
  await sandbox('POST', '/_sandbox/reset');
  const { batches: all } = await walkApi(await signIn(EDGE));
  batches = new Map(all.map((b) => [b.batch_name as string, b as unknown as Batch]));
  expect(batches.size).toBe(22);
});

/** The explorer of the edge organisation, in Berlin time, sorted by name, with Cells/tray hidden by link and Comment by hand. */
async function openExplorer(page: Page, comment: string) {
  await page.goto(PATH);
  await expect(status(page)).toHaveText(/^22 /);
  await page.getByText(/^(Columns|Spalten)$/).click();
  // A click, not check(): the box follows the URL, which changes a moment later.
  await page.getByRole('checkbox', { name: new RegExp(comment) }).click();
  await expect(page).toHaveURL(/hide=cells(%2C|,)comment/);
  await page.keyboard.press('Escape');
}

for (const [locale, L] of Object.entries(LANGUAGES)) {
  test.describe(`a ${locale} browser`, () => {
    test.use({ locale });

    test('the three exports hold the table as shown, typed, in the zone and in the reader’s notation', async ({
      page,
      context,
    }) => {
      await signInContext(context, EDGE);
      await openExplorer(page, L.comment);
      // The table's own headers are the export's, without units and zone.
      const headers = page.getByRole('region', { name: L.table }).getByRole('columnheader');
      await expect
        .poll(async () => (await headers.allTextContents()).map((t) => t.replace(/[▲▼]/g, '').trim()))
        .toEqual(L.headers.map((h) => h.replace(/ \(.*\)$/, '')));

      // CSV (API fields): the service's fields raw, for scripts, as before. Its order is the table's.
      const apiFile = await exportFrom(page, L.api, L.menu);
      expect(apiFile.name).toBe('Edge-cases-batches-all-time-api-fields.csv');
      expect(apiFile.bytes[0]).not.toBe(0xef);
      const apiRows = readCsv(apiFile.bytes.toString('utf8'));
      expect(apiRows[0]).toEqual(BATCH_FIELDS);
      const order = apiRows.slice(1).map((r) => r[1]!.replace(/^'/, ''));
      expect(order).toHaveLength(22);
      const inOrder = order.map((name) => batches.get(name)!);

      // Excel.
      const book = await exportFrom(page, L.xlsx, L.menu);
      expect(book.name).toBe('Edge-cases-batches-all-time.xlsx');
      const x = await readXlsx(book.bytes);
      const [header, ...data] = x.sheets[0]!.rows;
      expect(header).toEqual(L.headers);
      expect(data).toHaveLength(22);
      data.forEach((row, i) => {
        const b = inOrder[i]!;
        expect(row[1]).toBe(b.batch_name);
        expect(row[0]).toBeInstanceOf(Date);
        // A date cell is a count of days (a double): read back it may be a hair off the second (10:59:59.9999).
        const second = new Date(Math.round((row[0] as Date).getTime() / 1000) * 1000);
        expect(second.toISOString().slice(0, 19).replace('T', ' ')).toBe(wallClock(b.batch_creation_date));
        expect(row[3]).toBe(b.avg_germination_rate === null ? null : Number(b.avg_germination_rate));
        expect(row[5]).toBe(missesGermination(b) ? L.germinationMissed : null);
        expect(row[6]).toBe(b.avg_usable_seedling_rate === null ? null : Number(b.avg_usable_seedling_rate));
        expect(row[9]).toBe(b.number_of_images);
        expect(typeof row[9]).toBe('number');
        expect(row[10]).toBe(b.warnings ? L.yes : L.no);
        expect(row[11]).toBe(b.avg_germinated_seedlings === null ? null : Number(b.avg_germinated_seedlings));
        expect(row[13]).toBe(b.analysis_link);
        const ref = `${columnLetter(13)}${i + 2}`;
        expect(x.hyperlinks.get(ref) ?? null).toBe(httpLink(b.analysis_link) ? b.analysis_link : null);
      });
      // Hostile text is text: no formula anywhere, no apostrophe in the cell.
      expect(x.formulas).toBe(0);
      expect(data.map((r) => r[1])).toContain('=HYPERLINK("http://evil.example","click")');
      expect(data.map((r) => r[1])).toContain('-2+3');
      expect([...x.hyperlinks.values()].every((href) => /^https?:/.test(href))).toBe(true);
      expect(x.hyperlinks.size).toBe(inOrder.filter((b) => httpLink(b.analysis_link)).length);
      const view = Object.fromEntries(x.sheets[1]!.rows.map((r) => [r[0], r[1]]));
      expect(x.sheets[1]!.rows[0]).toEqual([L.view.organisation, EDGE.orgName]);
      expect(view[L.view.zone]).toBe(ZONE);
      expect(view[L.view.complete]).toBe(L.yes);
      expect(view[L.view.columns]).toBe(L.headers.join(', '));

      // CSV for the reader's spreadsheet: BOM, the locale's separator and decimal mark, the same table.
      const csvFile = await exportFrom(page, L.csv, L.menu);
      expect(csvFile.name).toBe('Edge-cases-batches-all-time.csv');
      expect([...csvFile.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = csvFile.bytes.toString('utf8').slice(1);
      expect(text.split('\r\n')[0]).toBe(L.headers.join(L.separator));
      const csv = readCsv(text, L.separator);
      expect(csv[0]).toEqual(L.headers);
      const decimal = (v: string | null) => (v === null ? '' : v.replace('.', L.decimal));
      csv.slice(1).forEach((row, i) => {
        const b = inOrder[i]!;
        expect(row[0]).toBe(wallClock(b.batch_creation_date));
        expect(row[1]).toBe(neutralized(b.batch_name));
        expect(row[3]).toBe(decimal(b.avg_germination_rate));
        expect(row[5]).toBe(missesGermination(b) ? L.germinationMissed : '');
        expect(row[8]).toBe(decimal(b.avg_median_seedling_size_mm2));
        expect(row[9]).toBe(String(b.number_of_images));
        expect(row[10]).toBe(b.warnings ? L.yes : L.no);
        expect(row[13]).toBe(b.analysis_link ?? '');
      });
      expect(csv.map((r) => r[1])).toEqual(
        expect.arrayContaining([
          `'=HYPERLINK("http://evil.example","click")`,
          `'-2+3`,
          `'\tTab first`,
          'Quotes "and", commas',
          'Ünïcödé 🌱 بذور 種子',
        ]),
      );
    });
  });
}

test.describe('an en-US browser', () => {
  test.use({ locale: 'en-US' });

  test('the Export menu is a keyboard menu: arrows move, Escape closes and gives focus back', async ({
    page,
    context,
  }) => {
    await signInContext(context, EDGE);
    await page.goto(PATH);
    const button = page.getByRole('button', { name: 'Export', exact: true });
    await expect(button).toHaveAttribute('aria-haspopup', 'menu');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const items = page.getByRole('menu', { name: 'Export' }).getByRole('menuitem');
    await expect(items).toHaveText(['Excel (.xlsx)', 'CSV', 'CSV (API fields)']);
    await expect(items.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(items.nth(2)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(button).toBeFocused();
    // Enter on an item downloads it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('Edge-cases-batches-all-time.csv');
  });

  test('each export’s file name says its organisation, its range, its crop and which file it is', async ({
    page,
    context,
  }) => {
    await signInContext(context, EDGE);
    await page.goto('/batches?tz=UTC&from=2025-04-01&to=2025-04-30&crop=Tomato');
    await expect(status(page)).toHaveText('12 batches');
    const names = [];
    for (const item of ['Excel (.xlsx)', 'CSV', 'CSV (API fields)']) names.push((await exportFrom(page, item)).name);
    expect(names).toEqual([
      'Edge-cases-batches-2025-04-01-to-2025-04-30-Tomato.xlsx',
      'Edge-cases-batches-2025-04-01-to-2025-04-30-Tomato.csv',
      'Edge-cases-batches-2025-04-01-to-2025-04-30-Tomato-api-fields.csv',
    ]);
    // A crop in any script, its space as a dash; all time said as such.
    await page.goto(`/batches?tz=UTC&from=2025-04-01&to=2025-04-02&crop=${encodeURIComponent('Pak choi 小白菜')}`);
    await expect(status(page)).toHaveText('1 batch');
    expect((await exportFrom(page, 'CSV')).name).toBe(
      'Edge-cases-batches-2025-04-01-to-2025-04-02-Pak-choi-小白菜.csv',
    );
    await page.goto('/batches?tz=UTC&crop=(none)');
    await expect(status(page)).toHaveText('1 batch');
    expect((await exportFrom(page, 'CSV (API fields)')).name).toBe(
      'Edge-cases-batches-all-time-no-crop-api-fields.csv',
    );
  });

  test('LibreOffice opens the workbook: its dates, numbers, links and hostile text as written', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    await signInContext(context, EDGE);
    await page.goto(PATH);
    await expect(status(page)).toHaveText(/^22 /);
    const book = await exportFrom(page, 'Excel (.xlsx)');
    const dir = mkdtempSync(join(tmpdir(), 'export-lo-'));
    try {
      const file = join(dir, 'book.xlsx');
      writeFileSync(file, book.bytes);
      // A profile of its own, so parallel runs (and a desktop LibreOffice) do not clash.
      await promisify(execFile)(
        'soffice',
        [
          `-env:UserInstallation=file://${dir}/profile`,
          '--headless',
          '--convert-to',
          'csv:Text - txt - csv (StarCalc):44,34,76,1',
          '--outdir',
          dir,
          file,
        ],
        { timeout: 90_000 },
      );
      const rows: string[][] = parse(readFileSync(join(dir, 'book.csv'), 'utf8'), { relax_column_count: true });
      expect(rows[0]!.slice(0, 4)).toEqual(['Created (Europe/Berlin)', 'Batch', 'Crop', 'Germination (%)']);
      const byName = new Map(rows.slice(1).map((r) => [r[1], r]));
      const perfect = byName.get('Perfect tray')!;
      expect(perfect[0]).toBe(wallClock(batches.get('Perfect tray')!.batch_creation_date));
      expect(perfect[3]).toBe('100.00');
      expect(byName.get('=HYPERLINK("http://evil.example","click")')).toBeDefined();
      expect(byName.get('Empty tray')![10]).toBe('Yes');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
