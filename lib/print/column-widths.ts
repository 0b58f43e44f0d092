/*
 * The printed batch table's column widths, worked out before the print from the text each column holds: a row
 * is one line (so 30 and more fit a landscape page), numbers and dates are never cut, every header word fits
 * whole, and when the page is too narrow for all of it the longest texts give way first and end in "…".
 */

/** A text's width on paper (CSS px) in the header's or the cells' font. */
export type Measure = (text: string) => number;

export type PrintColumnText = {
  header: string;
  cells: readonly string[];
  /** A text column may be cut short (with an ellipsis); numbers, dates and marks never are. */
  cuttable: boolean;
  /** How much more room than the other cuttable columns it keeps when they are cut (1 unless told). */
  weight?: number;
};

export type ColumnLayout = {
  /** Each column's share of the table's width, in percent. */
  percents: number[];
  /** Whether some cell of the column is longer than its width (and ends in "…" on paper). */
  cut: boolean[];
};

/** A header cut after each slash or hyphen (`Cells/`, `tray`): where it may wrap besides its spaces. */
export const afterBreaks = (header: string): string[] => header.split(/(?<=[/\-])/);

/** The parts a header may wrap into: its words, cut after a slash or a hyphen (`Cells/ tray`, `Usable- seedling`). */
export function headerWords(header: string): string[] {
  return header.split(/\s+/).flatMap(afterBreaks).filter(Boolean);
}

/**
 * Widths (CSS px, `available` in all) for columns of `texts`: each as wide as its widest cell and its longest
 * header word, plus `padding`. When they do not fit, the cuttable columns share what is left: each keeps its
 * widest cell if that fits under a common cap, the others are held to the cap (never under their longest
 * header word or `minCut`; a column of `weight` 2 to twice the cap). Only when even that does not fit do all columns shrink alike.
 */
export function columnLayout(
  texts: readonly PrintColumnText[],
  measure: { header: Measure; cell: Measure },
  available: number,
  padding: number,
  minCut: number,
): ColumnLayout {
  const widest = (cells: readonly string[]) => {
    let most = 0;
    const seen = new Set<string>();
    for (const c of cells) {
      if (seen.has(c)) continue;
      seen.add(c);
      most = Math.max(most, measure.cell(c));
    }
    return most;
  };
  const cols = texts.map((t) => {
    const word = Math.max(0, ...headerWords(t.header).map(measure.header));
    const content = widest(t.cells);
    const need = Math.max(word, content) + padding;
    return {
      need,
      least: t.cuttable ? Math.max(word, Math.min(content, minCut)) + padding : need,
      cuttable: t.cuttable,
      weight: t.weight ?? 1,
    };
  });
  const total = cols.reduce((s, c) => s + c.need, 0);
  let widths = cols.map((c) => c.need);
  if (total > available) {
    const at = (cap: number) =>
      cols.map((c) => (c.cuttable ? Math.max(c.least, Math.min(c.need, cap * c.weight)) : c.need));
    const sum = (ws: number[]) => ws.reduce((s, w) => s + w, 0);
    if (sum(at(0)) > available) {
      // Not even the least widths fit: all shrink alike (header words may then break; only a very narrow page).
      const least = at(0);
      const scale = available / sum(least);
      widths = least.map((w) => w * scale);
    } else {
      let lo = 0;
      let hi = Math.max(...cols.map((c) => c.need));
      for (let i = 0; i < 40; i++) {
        const mid = (lo + hi) / 2;
        if (sum(at(mid)) > available) hi = mid;
        else lo = mid;
      }
      widths = at(lo);
    }
  }
  const all = widths.reduce((s, w) => s + w, 0);
  return {
    percents: widths.map((w) => (w / all) * 100),
    cut: cols.map((c, i) => c.need > widths[i]! + 0.5),
  };
}
