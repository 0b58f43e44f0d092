import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, type Batch } from '@/lib/contract';
import { EXPORT_COLUMNS, shownColumns, wallClockIn } from '@/lib/export/columns';
import { offsetAt } from '@/lib/explorer/zones';
import { dialectFor } from '@/lib/export/dialect';
import { rowsToReaderCsv } from '@/lib/export/reader-csv';
import { exportWords } from '@/lib/export/strings';
import { MESSAGES } from '@/lib/i18n/messages';

const ENGLISH_WORDS = exportWords(MESSAGES.en);
import { viewLines } from '@/lib/export/view-sheet';
import { addViewSheet, startDataSheet } from '@/lib/export/xlsx';
import { toRow } from '@/lib/explorer/rows';
import { cellsUnderAnySplit, HOSTILE_TEXTS, readCsv, runsAsFormula, shownCsvText } from '../helpers/csv';
import { columnLetter, readXlsx } from '../helpers/xlsx';

function batch(id: string, at: string, over: Partial<Batch> = {}): Batch {
  return {
    batch_id: id,
    batch_name: id,
    batch_creation_date: at,
    crop_type: 'Lettuce Lollo Rosso · GH1',
    number_of_images: 12,
    total_cells_per_tray: 128,
    avg_germinated_seedlings: '120.25',
    avg_non_germinated_seedlings: null,
    avg_germination_rate: '93.95',
    avg_usable_seedlings: null,
    avg_non_usable_cells: null,
    avg_usable_seedling_rate: '0.10',
    avg_coefficient_of_variation: '12.30',
    avg_median_seedling_size_mm2: '41.07',
    scanned_by_email: 'a@x.example',
    analysis_link: 'https://r.example/a?x=1&y=2',
    comment: null,
    warnings: false,
    ...over,
  };
}

const rows = [
  batch('a', '2025-03-30T00:59:59Z'),
  batch('=HYPERLINK("http://evil.example","click")', '2025-03-30T01:00:00Z', {
    comment: '+SUM(1;2)',
    analysis_link: 'javascript:alert(1)',
    warnings: true,
  }),
  batch('Quotes "and"; semi', '2025-07-01T12:00:00Z', {
    avg_germination_rate: null,
    total_cells_per_tray: null,
    crop_type: '小白菜',
  }),
].map(toRow);
const ctx = { zone: 'Europe/Berlin', targets: DEFAULT_TARGETS, words: ENGLISH_WORDS };

describe('dialectFor', () => {
  it('semicolon and decimal comma where the locale writes 1,5; comma and point elsewhere', () => {
    expect(dialectFor('de-DE')).toEqual({ separator: ';', decimal: ',' });
    expect(dialectFor('nl-NL')).toEqual({ separator: ';', decimal: ',' });
    expect(dialectFor('en-US')).toEqual({ separator: ',', decimal: '.' });
    expect(dialectFor('not a locale!')).toEqual({ separator: ',', decimal: '.' });
  });
});

describe('rowsToReaderCsv', () => {
  it('de-DE: BOM, semicolons, decimal commas, wall-clock dates in the zone, Yes/No, only text neutralized', () => {
    const columns = shownColumns(new Set(['cells']));
    const text = rowsToReaderCsv(rows, columns, ctx, dialectFor('de-DE'));
    expect(text.startsWith('\uFEFF')).toBe(true);
    const csv = readCsv(text.slice(1), ';');
    expect(csv[0]).toEqual(columns.map((c) => c.header(ctx)));
    expect(csv[0]!.slice(0, 6)).toEqual([
      'Created (Europe/Berlin)',
      'Batch',
      'Crop',
      'Germination (%)',
      'Target (%)',
      'Off target',
    ]);
    const col = (id: string) => columns.findIndex((c) => c.id === id);
    // 00:59:59 UTC is 01:59:59 CET; a second later clocks jump to 03:00 CEST.
    expect(csv[1]![col('date')]).toBe('2025-03-30 01:59:59');
    expect(csv[2]![col('date')]).toBe('2025-03-30 03:00:00');
    expect(csv[1]![col('germination')]).toBe('93,95');
    expect(csv[1]![col('target')]).toBe('90');
    expect(csv[1]![col('size')]).toBe('41,07');
    expect(csv[1]![col('warnings')]).toBe('No');
    expect(csv[2]![col('warnings')]).toBe('Yes');
    expect(csv[2]![col('name')]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(csv[2]![col('comment')]).toBe(`'+SUM(1;2)`);
    expect(csv[3]![col('name')]).toBe('Quotes "and"; semi');
    expect(csv[3]![col('germination')]).toBe('');
  });

  it('en-US: commas and decimal points, the INCOMPLETE note first', () => {
    const text = rowsToReaderCsv(rows, EXPORT_COLUMNS, ctx, dialectFor('en-US'), 'INCOMPLETE: 3 batches');
    expect(text.startsWith('\uFEFFINCOMPLETE: 3 batches\r\n')).toBe(true);
    const csv = readCsv(text.slice('\uFEFFINCOMPLETE: 3 batches\r\n'.length));
    expect(csv[1]![3]).toBe('93.95');
    expect(csv[1]![7]).toBe('128');
  });

  it.each(['de-DE', 'en-US'])(
    '%s: hostile text reads back with its own separator, and no split on `,` `;` or tab runs a formula',
    (locale) => {
      const dialect = dialectFor(locale);
      const hostileRows = HOSTILE_TEXTS.map((text, i) =>
        toRow(
          batch(`h${i}`, '2025-04-01T10:00:00Z', {
            batch_name: text,
            crop_type: text,
            comment: text,
            avg_germination_rate: '-2.50',
            scanned_by_email: text,
          }),
        ),
      );
      // The name first: a text column, then the columns whose values carry the reader's decimal mark.
      const columns = ['name', 'germination', 'crop', 'scanner', 'comment', 'size', 'date'].map((id) =>
        EXPORT_COLUMNS.find((c) => c.id === id)!,
      );
      const text = rowsToReaderCsv(
        hostileRows,
        columns,
        ctx,
        dialect,
        'INCOMPLETE: 3 batches; not loaded: 2025-04-01,=x',
      );
      // The note is a record of its own (one field), the table's records after it.
      const noteEnd = text.indexOf('\r\n') + 2;
      expect(readCsv(text.slice(1, noteEnd), dialect.separator)).toEqual([
        ["INCOMPLETE: 3 batches; not loaded: 2025-04-01,'=x"],
      ]);
      const records = readCsv(text.slice(noteEnd), dialect.separator);
      expect(records[0]![0]).toBe('Batch');
      // First in its row, even a plain number such as -2.50 is text; the germination after it stays a number.
      expect(records.slice(1).map((r) => r.slice(0, 5))).toEqual(
        HOSTILE_TEXTS.map((t) => [
          shownCsvText(t, true),
          `-2${dialect.decimal}50`,
          shownCsvText(t),
          shownCsvText(t),
          shownCsvText(t),
        ]),
      );
      for (const split of [',', ';', '\t'] as const) {
        expect(
          cellsUnderAnySplit(text, split).filter(runsAsFormula),
          `${locale} split on ${JSON.stringify(split)}`,
        ).toEqual([]);
      }
    },
  );
});

describe('the workbook', () => {
  it('reads back, by another reader, with typed cells, wall-clock dates, http(s) links only and no formulas', async () => {
    const workbook = new ExcelJS.Workbook();
    const columns = shownColumns(new Set(['comment']));
    const data = startDataSheet(workbook, columns, ctx, null);
    for (const r of rows) data.add(r);
    addViewSheet(workbook, {
      ...ctx,
      organisation: 'Greenfield Seeds',
      targetsText: 'General: germination 90.0%',
      columns,
      batches: 3,
      made: Date.parse('2025-06-01T10:00:00Z'),
      incomplete: null,
      crop: 'Tomato',
    });
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const x = await readXlsx(file);
    expect(x.sheets.map((s) => s.name)).toEqual(['Batches', 'View']);
    const [header, first, second, third] = x.sheets[0]!.rows;
    expect(header).toEqual(columns.map((c) => c.header(ctx)));
    const col = (id: string) => columns.findIndex((c) => c.id === id);
    expect(Math.round(Number(first![col('date')]) / 1000) * 1000).toBe(Date.parse('2025-03-30T01:59:59Z'));
    expect(Math.round(Number(second![col('date')]) / 1000) * 1000).toBe(Date.parse('2025-03-30T03:00:00Z'));
    expect(first![col('germination')]).toBe(93.95);
    expect(first![col('usable')]).toBe(0.1);
    expect(first![col('cells')]).toBe(128);
    expect(first![col('target')]).toBe(90);
    expect(first![col('warnings')]).toBe('No');
    expect(second![col('name')]).toBe('=HYPERLINK("http://evil.example","click")');
    expect(third![col('germination')]).toBeNull();
    expect(third![col('crop')]).toBe('小白菜');
    expect(x.formulas).toBe(0);
    const link = columnLetter(col('analysis'));
    expect(Object.fromEntries(x.hyperlinks)).toEqual({
      [`${link}2`]: 'https://r.example/a?x=1&y=2',
      [`${link}4`]: 'https://r.example/a?x=1&y=2',
    });
    expect(second![col('analysis')]).toBe('javascript:alert(1)');
    // `0.00` and `0` are Excel's built-in formats 2 and 1, named by id only.
    expect(x.numFmts).toEqual(['yyyy-mm-dd hh:mm:ss']);
    expect(x.frozen && x.autoFilter).toBe(true);
    const view = Object.fromEntries(x.sheets[1]!.rows.map((r) => [r[0], r[1]]));
    expect(x.sheets[1]!.rows[0]).toEqual(['Organisation', 'Greenfield Seeds']);
    expect(view).toMatchObject({
      'Time zone': 'Europe/Berlin',
      Crop: 'Tomato',
      'Data complete': 'Yes',
      Made: '2025-06-01 12:00:00 (Europe/Berlin)',
      Range: 'All time',
      Targets: 'General: germination 90.0%',
    });
  });

  it('the range is the days the file holds, in the view’s zone on the day it was made; a rolling one keeps its notation too', () => {
    const base = {
      organisation: 'Greenfield Seeds',
      zone: 'Pacific/Auckland',
      targets: DEFAULT_TARGETS,
      targetsText: '',
      words: ENGLISH_WORDS,
      columns: EXPORT_COLUMNS,
      batches: 1,
      incomplete: null,
    };
    // 2026-11-26 11:30 UTC is already the 27th in Auckland.
    const made = Date.parse('2026-11-26T11:30:00Z');
    const range = (from?: string, to?: string) => Object.fromEntries(viewLines({ ...base, made, from, to })).Range;
    expect(range('now-90d', 'now')).toBe('2026-08-30 – 2026-11-27 (now-90d – now)');
    expect(range('now/y', 'now')).toBe('2026-01-01 – 2026-11-27 (now/y – now)');
    expect(range('all', 'now')).toBe('All time');
    expect(range()).toBe('All time');
    expect(range('2026-05-01', '2026-05-31')).toBe('2026-05-01 – 2026-05-31');
    expect(range('2026-05-01', 'now')).toBe('2026-05-01 – 2026-11-27 (2026-05-01 – now)');
  });

  it('an incomplete view is marked above the header of the data sheet and on the view sheet', () => {
    const lines = Object.fromEntries(
      viewLines({
        organisation: 'Greenfield Seeds',
        zone: 'UTC',
        targets: DEFAULT_TARGETS,
        targetsText: '',
        words: ENGLISH_WORDS,
        columns: EXPORT_COLUMNS,
        batches: 1,
        made: 0,
        incomplete: 'INCOMPLETE: 1 batch',
      }),
    );
    expect(lines['Data complete']).toBe('No: INCOMPLETE: 1 batch');
  });
});

describe('wallClockIn', () => {
  it('gives the same wall clock as a lookup per instant, across DST changes, in zones with odd offsets too', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC']) {
      const clock = wallClockIn(zone);
      for (let ms = Date.parse('2025-01-01T00:00:00Z'); ms < Date.parse('2026-01-01T00:00:00Z'); ms += 7_654_321) {
        expect(clock(ms), `${zone} ${new Date(ms).toISOString()}`).toBe(ms + offsetAt(ms, zone));
      }
    }
  });
});
