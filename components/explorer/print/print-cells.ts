/*
 * The printed batch table's cells as text (one line each on paper, so their widths can be measured before the
 * print): the screen's values without its controls, a below-target verdict as a mark the legend explains.
 */
import { targetFor, type Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import { belowTarget, type Row } from '@/lib/explorer/rows';
import { DASH, type Formats } from '@/lib/i18n/formats';
import { safeHttpUrl } from '@/lib/safe-url';
import { usableBelow, type ColumnId } from '../columns';

/** What a printed cell says; `below` prints it in the danger colour, `href` makes it a link in a PDF. */
export type PrintCell = { text: string; below?: boolean; href?: string };

export type PrintCellContext = { zone: Zone; targets: Targets; f: Formats; words: { warning: string; link: string } };

/** After a value below its crop's target (the legend under the table's title says so; ▲▼ mark the sort). */
export const BELOW_MARK = '↓';

/** Text on one line: line breaks and tabs of a comment or name become spaces. */
const line = (v: string | null) => (v === null || v === '' ? DASH : v.replace(/\s+/g, ' '));
const judged = (text: string, below: boolean): PrintCell => (below ? { text: `${text} ${BELOW_MARK}`, below } : { text });

/** Every column's printed cell: a column added to the table without one here is a type error. */
export const PRINT_CELLS: Record<ColumnId, (r: Row, c: PrintCellContext) => PrintCell> = {
  // The zone is the report's (its header names it): UTC is not repeated in every row.
  date: (r, { f, zone }) => ({ text: f.dateTime(r.time, zone).replace(/ UTC$/, '') }),
  name: (r) => ({ text: line(r.name) }),
  crop: (r) => ({ text: line(r.crop) }),
  germination: (r, { f, targets }) => judged(f.percent(r.germination), belowTarget(r, targetFor(targets, r.crop, 'germination'))),
  target: (r, { f, targets }) => ({ text: f.percent(targetFor(targets, r.crop, 'germination')) }),
  usable: (r, { f, targets }) => judged(f.percent(r.usable), usableBelow(r, targets)),
  cells: (r, { f }) => ({ text: f.int(r.cells) }),
  cv: (r, { f }) => ({ text: f.percent(r.field('avg_coefficient_of_variation')) }),
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
export const CUTTABLE: ReadonlyMap<ColumnId, number> = new Map<ColumnId, number>([['name', 2], ['crop', 1], ['scanner', 1], ['analysis', 1], ['comment', 1.5]]);
