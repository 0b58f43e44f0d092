/*
 * The printed batch table's cells as text (one line each on paper, so their widths can be measured before the
 * print): the screen's values without its controls, a figure that misses its target followed by a mark the
 * legend explains, the Off target column's kinds as a comma list.
 */
import { targetFor, type TargetMetric, type Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import { missedKinds, missesOfRow, type MissKind } from '@/lib/explorer/targets/misses';
import { verdict, verdictFigure } from '@/lib/explorer/verdict';
import { DASH, type Formats } from '@/lib/i18n/formats';
import { safeHttpUrl } from '@/lib/safe-url';
import type { ColumnId } from '@/lib/export/strings';
import { columnLayout, type ColumnLayout, type Measure } from './column-widths';

/** So many batches are printed; the rest are one Export away. */
export const PRINT_ROW_LIMIT = 2000;

/**
 * The marks after a figure that misses its crop's target (the legend under the table's title says which; ▲▼
 * mark the sort): a rate below its target, a CV above its threshold.
 */
export const MISS_MARKS = { below: '↓', above: '↑' } as const;
export type MissMark = keyof typeof MISS_MARKS;

/** What a printed cell says; `miss` marks it and prints it in the danger colour, `href` makes it a link in a PDF. */
export type PrintCell = { text: string; miss?: MissMark; href?: string };

export type PrintCellContext = {
  zone: Zone;
  targets: Targets;
  f: Formats;
  words: { warning: string; link: string; kinds: Readonly<Record<MissKind, string>> };
};

/** Text on one line: line breaks and tabs of a comment or name become spaces. */
const line = (v: string | null) => (v === null || v === '' ? DASH : v.replace(/\s+/g, ' '));

/** A figure judged against its crop's target, with the screen's rule and decimals: marked when it misses. */
function judged(r: Row, metric: TargetMetric, { f, targets }: PrintCellContext): PrintCell {
  const v = verdict(r, targets, metric);
  const text = verdictFigure(v, f.percent);
  if (!v.misses) return { text };
  const miss: MissMark = metric === 'cv' ? 'above' : 'below';
  return { text: `${text} ${MISS_MARKS[miss]}`, miss };
}

/** Every column's printed cell: a column added to the table without one here is a type error. */
export const PRINT_CELLS: Record<ColumnId, (r: Row, c: PrintCellContext) => PrintCell> = {
  // The zone is the report's (its header names it): UTC is not repeated in every row.
  date: (r, { f, zone }) => ({ text: f.dateTime(r.time, zone).replace(/ UTC$/, '') }),
  name: (r) => ({ text: line(r.name) }),
  crop: (r) => ({ text: line(r.crop) }),
  germination: (r, c) => judged(r, 'germination', c),
  target: (r, { f, targets }) => ({ text: f.percent(targetFor(targets, r.crop, 'germination')) }),
  // The kinds missed as the screen's badges name them, a comma list on one line.
  below: (r, { targets, words }) => ({
    text:
      missedKinds(missesOfRow(r, targets))
        .map((k) => words.kinds[k])
        .join(', ') || DASH,
  }),
  usable: (r, c) => judged(r, 'usable', c),
  cells: (r, { f }) => ({ text: f.int(r.cells) }),
  cv: (r, c) => judged(r, 'cv', c),
  size: (r, { f }) => ({ text: f.area(r.field('avg_median_seedling_size_mm2')) }),
  images: (r, { f }) => ({ text: f.int(r.field('number_of_images')) }),
  warnings: (r, { words }) => ({ text: r.warnings ? words.warning : DASH }),
  germinated: (r, { f }) => ({ text: f.decimal(r.field('avg_germinated_seedlings')) }),
  scanner: (r) => ({ text: line(r.scanner) }),
  analysis: (r, { words }) => {
    const link = r.field('analysis_link');
    const href = safeHttpUrl(link);
    return href ? { text: words.link, href } : { text: line(link) };
  },
  comment: (r) => ({ text: line(r.field('comment')) }),
};

/**
 * The columns whose text may be cut short on paper (names and free text, never a number, date or mark), and how
 * much room each keeps against the others: a batch's name most, as what a reader looks for.
 */
export const CUTTABLE: ReadonlyMap<ColumnId, number> = new Map<ColumnId, number>([
  ['name', 2],
  ['crop', 1],
  ['scanner', 1],
  ['analysis', 1],
  ['comment', 1.5],
]);

/** The printed table's type (points) and a cell's padding each side (CSS px): its widths are measured in them. */
export const PRINT_CELL_PT = 7;
export const PRINT_PAD_PX = 2.5;
/** The least a text column is cut to (about ten letters), unless its header word is longer. */
const MIN_CUT_TEXT = 'abcdefghij';

/**
 * The widths of a printed table on `tableMm` of paper: the row numbers first, then each column of `ids` with its
 * header and cells, names and free text cut before numbers are (CUTTABLE), measured with `measure`.
 */
export function printTableLayout(
  ids: readonly ColumnId[],
  headers: readonly string[],
  numbers: readonly string[],
  cells: readonly (readonly PrintCell[])[],
  measure: { header: Measure; cell: Measure },
  tableMm: number,
): ColumnLayout {
  const texts = [
    { header: '#', cells: numbers, cuttable: false },
    ...ids.map((id, i) => ({
      header: headers[i]!,
      cells: cells[i]!.map((p) => p.text),
      cuttable: CUTTABLE.has(id),
      weight: CUTTABLE.get(id),
    })),
  ];
  return columnLayout(texts, measure, (tableMm / 25.4) * 96, 2 * PRINT_PAD_PX, measure.cell(MIN_CUT_TEXT));
}
