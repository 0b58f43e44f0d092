import { describe, expect, it } from 'vitest';
import { columnLayout, headerWords, type PrintColumnText } from '@/lib/print/column-widths';

/** A monospaced stand-in for the canvas: 5 px a letter in the cells, 6 px in the bold headers. */
const measure = { cell: (t: string) => t.length * 5, header: (t: string) => t.length * 6 };
const PAD = 4;
const widthsOf = (texts: PrintColumnText[], available: number, minCut = 50) => {
  const { percents, cut } = columnLayout(texts, measure, available, PAD, minCut);
  return { px: percents.map((p) => (p / 100) * Math.max(available, 0)), cut, percents };
};

const date: PrintColumnText = { header: 'Created', cells: ['20 Nov 2026, 10:49'], cuttable: false };
const germinated: PrintColumnText = { header: 'Germinated/tray', cells: ['118.4', '7.0'], cuttable: false };
const name: PrintColumnText = {
  header: 'Batch',
  cells: ['Tomato San Marzano · Propagation A · wk45 #48', 'Short'],
  cuttable: true,
  weight: 2,
};
const crop: PrintColumnText = { header: 'Crop', cells: ['Tomato', 'Bell pepper'], cuttable: true };
const comment: PrintColumnText = {
  header: 'Comment',
  cells: ['Client asked for a "priority" report on this one', '—'],
  cuttable: true,
};

describe('the printed table’s column widths', () => {
  it('wraps headers only at spaces and after a slash or hyphen', () => {
    expect(headerWords('Germinated/tray')).toEqual(['Germinated/', 'tray']);
    expect(headerWords('Größen-VK')).toEqual(['Größen-', 'VK']);
    expect(headerWords('Scanned by ▼')).toEqual(['Scanned', 'by', '▼']);
    expect(headerWords('Mediangröße')).toEqual(['Mediangröße']);
  });

  it('gives each column its widest cell or longest header word when all fit, and cuts nothing', () => {
    const texts = [date, germinated, crop];
    const { percents, cut } = widthsOf(texts, 1000);
    const need = [18 * 5 + PAD, 11 * 6 + PAD, 11 * 5 + PAD]; // the date; "Germinated/"; "Bell pepper"
    const total = need.reduce((a, b) => a + b);
    percents.forEach((p, i) => expect(p).toBeCloseTo((need[i]! / total) * 100, 6));
    expect(cut).toEqual([false, false, false]);
  });

  it('when the page is too narrow, cuts only text columns, the longest first, a name keeping twice the room', () => {
    const texts = [date, germinated, name, crop, comment];
    const available = 94 + 70 + 300;
    const { px, cut } = widthsOf(texts, available);
    // Dates and numbers keep their width, header words whole.
    expect(px[0]).toBeCloseTo(94, 6);
    expect(px[1]).toBeCloseTo(70, 6);
    // The crop fits under the cap and keeps its whole text; the name and comment share the rest, 2 : 1.
    expect(px[3]).toBeCloseTo(59, 6);
    expect(px[2]! + px[4]!).toBeCloseTo(300 - 59, 3);
    expect(px[2]! / px[4]!).toBeCloseTo(2, 3);
    expect(cut).toEqual([false, false, true, false, true]);
    expect(px.reduce((a, b) => a + b)).toBeCloseTo(available, 3);
  });

  it('never cuts a text under its least width or its header word', () => {
    const longHeader: PrintColumnText = { header: 'Waarschuwingen', cells: ['x'.repeat(80)], cuttable: true };
    const { px } = widthsOf([date, longHeader, comment], 94 + 100 + 60, 20);
    expect(px[1]).toBeGreaterThanOrEqual(14 * 6 + PAD - 1e-6);
    expect(px[2]).toBeGreaterThanOrEqual(20 + PAD - 1e-6);
  });

  it('shrinks every column alike only when not even the least widths fit', () => {
    const { px } = widthsOf([date, germinated, comment], 150);
    const least = [94, 70, 50 + PAD];
    const scale = 150 / least.reduce((a, b) => a + b);
    px.forEach((w, i) => expect(w).toBeCloseTo(least[i]! * scale, 6));
  });

  it('measures each distinct text once', () => {
    let calls = 0;
    const counting = { cell: (t: string) => (calls++, t.length), header: (t: string) => t.length };
    columnLayout(
      [{ header: 'Crop', cells: Array.from({ length: 2000 }, (_, i) => (i % 2 ? 'Tomato' : 'Basil')), cuttable: true }],
      counting,
      500,
      0,
      10,
    );
    expect(calls).toBe(2);
  });
});
