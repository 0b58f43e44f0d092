import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '@/lib/csv';
import { readCsv } from '../helpers/csv';

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
    expect(readCsv(csvRow([text]))[0]![0]).toBe(`'${text}`);
  });

  it('does not neutralize numbers, even negative ones', () => {
    expect(csvCell('-2.50')).toBe('-2.50');
    expect(csvCell(-3)).toBe('-3');
  });

  it('round-trips hostile text through an independent strict parser', () => {
    const values = ['Line one,\nline "two"\r\nline three', '<script>x</script>', 'Ünïcödé 🌱', '', 'a""b'];
    expect(readCsv(csvRow(values) + csvRow(values))).toEqual([values, values]);
  });
});
