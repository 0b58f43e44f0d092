import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_FIELDS, type Batch } from '@/lib/contract';
import { csvCell, csvRow, csvRows } from '@/lib/csv';
import { edgeCaseBatches } from '@/sandbox/data/edge-cases';
import { generateBatches } from '@/sandbox/data/generate';
import { readCsv } from '../helpers/csv';

/**
 * What a spreadsheet should show for a text cell, written out here rather than taken from lib/csv.ts: text
 * that starts like a formula gets a leading apostrophe (OWASP), unless it is a plain number such as -2.50.
 */
function shownText(text: string): string {
  const startsLikeFormula = ['=', '+', '-', '@', '\t', '\r'].includes(text.charAt(0));
  const plainNumber = /^-?[0-9]+(\.[0-9]+)?$/.test(text);
  return startsLikeFormula && !plainNumber ? `'${text}` : text;
}

/** What a reader gets back for any field of a batch: null is empty, numbers and booleans their String(). */
function shownValue(value: Batch[keyof Batch]): string {
  if (value === null) return '';
  return typeof value === 'string' ? shownText(value) : String(value);
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

  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
  });

  it.each(['=1+1', '+SUM(1,2)', '-2+3', '@cmd', '\tTab', '\rCR'])('neutralizes %j', (text) => {
    expect(readCsv(csvRow([text]))).toEqual([[`'${text}`]]);
  });

  it('does not neutralize numbers, even negative ones', () => {
    expect(csvCell('-2.50')).toBe('-2.50');
    expect(csvCell(-3)).toBe('-3');
    expect(readCsv(csvRow(['-2.50', '-7', -3, -0.5]))).toEqual([['-2.50', '-7', '-3', '-0.5']]);
  });

  it('round-trips hostile text through an independent strict parser', () => {
    const values = ['Line one,\nline "two"\r\nline three', '<script>x</script>', 'Ünïcödé 🌱', '', 'a""b'];
    expect(readCsv(csvRow(values) + csvRow(values))).toEqual([values, values]);
  });

  it('reads back every kind of hostile cell, each in its own place', () => {
    const values = [
      'say "hi"', 'a,b', 'cr\ronly', 'lf\nonly', 'crlf\r\nboth', '"', '""', 'a""b', ',', '\r\n', '',
      '🌱 種子 بذور', '👩‍👩‍👧‍👦', '\uFEFFbom first', 'trailing space ', ' leading space',
      '=1+1', '+1', '-1+1', '@SUM(A1)', '\tTab', '\rCR', '-', '=', '-2.50', '-7', '+7', '-1e5', "'already quoted",
    ];
    const records = readCsv(csvRow(['first', ...values, 'last']) + csvRow(['again', ...values, 'end']));
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(['first', ...values.map(shownText), 'last']);
    expect(records[1]).toEqual(['again', ...values.map(shownText), 'end']);
    // The formula rule above is not vacuous here: these eleven come back changed, and only these.
    expect(values.filter((v) => shownText(v) !== v)).toEqual(['\r\n', '=1+1', '+1', '-1+1', '@SUM(A1)', '\tTab', '\rCR', '-', '=', '+7', '-1e5']);
  });

  it('reads back thousands of real batches record by record, field by field', () => {
    const batches = [
      ...generateBatches({ seed: 'csv', count: 5_000, anchorMs: Date.UTC(2026, 5, 1), scanners: ['a@x.example', 'b@x.example'], reportBaseUrl: 'https://r.example' }),
      ...edgeCaseBatches('https://r.example'),
    ];
    expect(BATCH_FIELDS).toHaveLength(18);
    const records = readCsv(csvRow(BATCH_FIELDS) + csvRows(batches, BATCH_FIELDS));
    expect(records).toHaveLength(batches.length + 1);
    expect(records[0]).toEqual([...BATCH_FIELDS]);
    // One comparison of everything (an expect per record cost a second); a difference is shown by record index.
    expect(records.slice(1)).toEqual(batches.map((batch) => BATCH_FIELDS.map((field) => shownValue(batch[field]))));
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
    const table = fc.integer({ min: 1, max: 6 }).chain((width) => fc.array(fc.array(text, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 5 }));
    fc.assert(
      // A plain comparison per run; fast-check shrinks and reports the smallest table that fails.
      fc.property(table, (rows) => {
        const read = readCsv(rows.map((row) => csvRow(row)).join(''));
        return JSON.stringify(read) === JSON.stringify(rows.map((row) => row.map(shownText)));
      }),
      { numRuns: 2_000 },
    );
  });
});
