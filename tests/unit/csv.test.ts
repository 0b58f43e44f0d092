import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_FIELDS, type Batch } from '@/lib/contract';
import { csvCell, csvRow, csvRows } from '@/lib/csv';
import { edgeCaseBatches } from '@/sandbox/data/edge-cases';
import { generateBatches } from '@/sandbox/data/generate';
import { cellsUnderAnySplit, HOSTILE_TEXTS, readCsv, runsAsFormula, shownCsvText } from '../helpers/csv';

const shownText = shownCsvText;
/** A row of text as a reader gets it back. */
const shownRow = (texts: readonly string[]) => texts.map((t, i) => shownText(t, i === 0));

/** What a reader gets back for any field of a batch: null is empty, numbers and booleans their String(). */
function shownValue(value: Batch[keyof Batch], leading: boolean): string {
  if (value === null) return '';
  return shownText(typeof value === 'string' ? value : String(value), leading && typeof value !== 'boolean');
}

describe('the independent reader the tests check with', () => {
  it('refuses what strict RFC 4180 refuses', () => {
    expect(readCsv('a,"b ""c""",\r\n')).toEqual([['a', 'b "c"', '']]);
    expect(() => readCsv('a"b\r\n')).toThrow(/quote/i);
    expect(() => readCsv('"a"b\r\n')).toThrow(/quote/i);
    expect(() => readCsv('"a\r\n')).toThrow(/quote/i);
    expect(() => readCsv('a,b\r\nc\r\n')).toThrow(/record length/i);
    expect(() => readCsv('a\rb\r\n')).toThrow(/unquoted line break/);
    expect(() => readCsv('a\nb\r\n')).toThrow(/unquoted line break/);
    expect(() => readCsv('a\nb\n')).toThrow(/CRLF/);
  });
});

describe('CSV (RFC 4180) with formula neutralization', () => {
  it('leaves plain values alone and writes null as empty', () => {
    expect(csvRow(['abc', 12, true, null, '91.50'])).toBe('abc,12,true,,91.50\r\n');
  });

  it('quotes commas, semicolons, tabs, quotes and line breaks whatever the separator, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
  });

  it.each(['=1+1', '+SUM(1,2)', '-2+3', '@cmd', '\tTab', '\rCR'])('neutralizes %j', (text) => {
    expect(readCsv(csvRow([text]))).toEqual([[`'${text}`]]);
  });

  it('does not neutralize numbers, even negative ones, but first in a row', () => {
    expect(csvCell('-2.50')).toBe('-2.50');
    expect(csvCell(-3)).toBe('-3');
    expect(readCsv(csvRow(['b1', '-2.50', '-7', -3, -0.5]))).toEqual([['b1', '-2.50', '-7', '-3', '-0.5']]);
    // Split on `;`, the row `-1,2+cmd|…` is one cell, a formula where the decimal mark is `,`.
    expect(readCsv(csvRow(['-1', '2+cmd']) + csvRow([-1, '2+cmd']) + csvRow([7, 'x']))).toEqual([
      ["'-1", '2+cmd'],
      ["'-1", '2+cmd'],
      ['7', 'x'],
    ]);
  });

  it('round-trips hostile text through an independent strict parser', () => {
    const values = ['Line one,\nline "two"\r\nline three', '<script>x</script>', 'Ünïcödé 🌱', '', 'a""b'];
    expect(readCsv(csvRow(values) + csvRow(values))).toEqual([values, values]);
  });

  it('reads back every kind of hostile cell, each in its own place', () => {
    const values = [
      'say "hi"',
      'a,b',
      'cr\ronly',
      'lf\nonly',
      'crlf\r\nboth',
      '"',
      '""',
      'a""b',
      ',',
      '\r\n',
      '',
      '🌱 種子 بذور',
      '👩‍👩‍👧‍👦',
      '\uFEFFbom first',
      'trailing space ',
      ' leading space',
      '=1+1',
      '+1',
      '-1+1',
      '@SUM(A1)',
      '\tTab',
      '\rCR',
      '-',
      '=',
      '-2.50',
      '-7',
      '+7',
      '-1e5',
      "'already quoted",
    ];
    const records = readCsv(csvRow(['first', ...values, 'last']) + csvRow(['again', ...values, 'end']));
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(['first', ...values.map((v) => shownText(v)), 'last']);
    expect(records[1]).toEqual(['again', ...values.map((v) => shownText(v)), 'end']);
    // The formula rule above is not vacuous here: these eleven come back changed, and only these.
    expect(values.filter((v) => shownText(v) !== v)).toEqual([
      '\r\n',
      '=1+1',
      '+1',
      '-1+1',
      '@SUM(A1)',
      '\tTab',
      '\rCR',
      '-',
      '=',
      '+7',
      '-1e5',
    ]);
  });

  it('reads back thousands of real batches record by record, field by field', () => {
    const batches = [
      ...generateBatches({
        seed: 'csv',
        count: 5_000,
        anchorMs: Date.UTC(2026, 5, 1),
        scanners: ['a@x.example', 'b@x.example'],
        reportBaseUrl: 'https://r.example',
      }),
      ...edgeCaseBatches('https://r.example'),
    ];
    expect(BATCH_FIELDS).toHaveLength(18);
    const records = readCsv(csvRow(BATCH_FIELDS) + csvRows(batches, BATCH_FIELDS));
    expect(records).toHaveLength(batches.length + 1);
    expect(records[0]).toEqual([...BATCH_FIELDS]);
    // One comparison of everything (an expect per record cost a second); a difference is shown by record index.
    expect(records.slice(1)).toEqual(
      batches.map((batch) => BATCH_FIELDS.map((field, i) => shownValue(batch[field], i === 0))),
    );
    // The data holds every case the rules distinguish, so the loop above checked each of them.
    const cells = batches.flatMap((b) => BATCH_FIELDS.map((f) => b[f]));
    expect(cells.some((v) => v === null)).toBe(true);
    expect(cells.some((v) => v === true) && cells.some((v) => v === false)).toBe(true);
    expect(cells.some((v) => typeof v === 'number')).toBe(true);
    expect(cells.some((v) => typeof v === 'string' && shownText(v) !== v)).toBe(true);
    expect(cells.some((v) => typeof v === 'string' && /[",\r\n]/.test(v))).toBe(true);
  });

  it('any rows of any unicode text survive write then read, formula-like text with a leading apostrophe', () => {
    // Characters the writer treats specially come up often; the rest is any code point, or a whole grapheme.
    const unit = fc.oneof(
      fc.constantFrom('"', ',', '\r', '\n', '\r\n', '=', '+', '-', '@', '\t', "'", '.', '1', ' ', '\uFEFF'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    );
    const text = fc.string({ unit, maxLength: 12 });
    const table = fc
      .integer({ min: 1, max: 6 })
      .chain((width) =>
        fc.array(fc.array(text, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 5 }),
      );
    fc.assert(
      // A plain comparison per run; fast-check shrinks and reports the smallest table that fails.
      fc.property(table, (rows) => {
        const read = readCsv(rows.map((row) => csvRow(row)).join(''));
        return JSON.stringify(read) === JSON.stringify(rows.map(shownRow));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('a spreadsheet that splits on the other separator, or ignores quotes', () => {
  const hostile = HOSTILE_TEXTS;

  it('Tray;=1+1: one quoted cell with `,`, and a reader splitting on `;` gets no cell starting with =', () => {
    const text = csvRow(['b1', 'Tray;=1+1', 'Lettuce']);
    expect(text).toBe(`b1,"Tray;'=1+1",Lettuce\r\n`);
    expect(readCsv(text, ',')).toEqual([['b1', "Tray;'=1+1", 'Lettuce']]);
    expect(cellsUnderAnySplit(text, ';')).toEqual(['b1,"Tray', `'=1+1",Lettuce`]);
  });

  it.each([',', ';'] as const)(
    'rows written with %j read back exactly with it, and no split of them runs a formula',
    (separator) => {
      const text = hostile.map((v) => csvRow(['first', v, -3, '-7', 'last'], separator)).join('');
      expect(readCsv(text, separator)).toEqual(hostile.map((v) => ['first', shownText(v), '-3', '-7', 'last']));
      for (const split of [',', ';', '\t'] as const) {
        expect(cellsUnderAnySplit(text, split).filter(runsAsFormula), `split on ${JSON.stringify(split)}`).toEqual([]);
      }
    },
  );

  it('any text, written with either separator and split on any, never gives a cell a spreadsheet would run', () => {
    const unit = fc.oneof(
      fc.constantFrom('"', ',', ';', '\t', '\r', '\n', '=', '+', '-', '@', "'", ' ', '1', '.', 'a'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    const row = fc.array(fc.string({ unit, maxLength: 10 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        row,
        fc.constantFrom(',' as const, ';' as const),
        fc.constantFrom(',' as const, ';' as const, '\t' as const),
        (values, separator, split) => {
          const text = csvRow(values, separator);
          return (
            JSON.stringify(readCsv(text, separator)) === JSON.stringify([shownRow(values)]) &&
            !cellsUnderAnySplit(text, split).some(runsAsFormula)
          );
        },
      ),
      { numRuns: 3_000 },
    );
  });
});
