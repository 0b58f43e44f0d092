/**
 * The table a view shows, as its exports write it: the rows its filters keep in its order, its columns, and the
 * View sheet's description in the reader's words. One path for the page's Export menu and the server's
 * scheduled reports, so both make the same workbook of the same view.
 */
import type { Targets } from '../contract/targets';
import { cropName, drillChips, rowDrillOf } from '../explorer/drill';
import { filterRows, sortRows, type Row, type RowFilter } from '../explorer/rows';
import type { Speech } from '../explorer/speech';
import { targetLines, type PrintT } from '../explorer/targets/target-lines';
import type { ExplorerState, Grouping, SortField } from '../explorer/url-state';
import { shownColumns, type ExportColumn, type ExportContext } from './columns';
import type { ColumnId, ExportWords } from './strings';
import type { ExportView } from './view-sheet';

/** Every filter of the view: Search, crop, warnings, below target, the drill-downs. */
export function rowFilterOf(state: ExplorerState, targets: Targets, search = state.q): RowFilter {
  return { q: search, crop: state.crop, warn: state.warn, below: state.below, targets, drill: rowDrillOf(state) };
}

/** The rows the view's table shows, in its order (`rows` in creation order). */
export function shownRowsOf(rows: readonly Row[], state: ExplorerState, targets: Targets): Row[] {
  return sortRows(filterRows(rows, rowFilterOf(state, targets)), state.sort, state.dir, targets);
}

/** The hidden columns of `hide=`. */
export const hiddenOf = (hide: string): Set<string> => new Set(hide.split(',').filter(Boolean));

/** The columns the view shows, in the table's order. */
export const viewColumns = (state: Pick<ExplorerState, 'hide'>): ExportColumn[] => shownColumns(hiddenOf(state.hide));

/** The table column a sort field belongs to. */
const SORT_COLUMN: Partial<Record<SortField, ColumnId>> = {
  batch_creation_date: 'date',
  batch_name: 'name',
  crop_type: 'crop',
  avg_germination_rate: 'germination',
  target: 'target',
  below: 'below',
  avg_usable_seedling_rate: 'usable',
  total_cells_per_tray: 'cells',
  avg_coefficient_of_variation: 'cv',
  avg_median_seedling_size_mm2: 'size',
  number_of_images: 'images',
  warnings: 'warnings',
};

/** The analysis bar's word for each grouping (`analysis.bar.*`). */
const GROUPING_WORD = {
  crop: 'crop',
  week: 'week',
  month: 'month',
  scanner: 'scanner',
  'crop-week': 'cropWeek',
} as const satisfies Record<Grouping, string>;

/** The words a View sheet is written in: the analysis's speech, the print report's, the export's (column names). */
export type ViewWords = { say: Speech; print: PrintT; words: ExportWords };

/** What the View sheet says of the view besides the context and the rows. */
export type ViewSheetOf = Omit<ExportView, 'columns' | 'batches' | 'made' | 'incomplete' | keyof ExportContext>;

/** The View sheet's description of a view: its range, filters, drill-downs, sort, grouping and the targets in force. */
export function viewSheetOf(
  state: ExplorerState,
  organisation: string,
  targets: Targets,
  crops: readonly string[],
  words: ViewWords,
  search = state.q,
): ViewSheetOf {
  const sortColumn = SORT_COLUMN[state.sort];
  return {
    ...state,
    organisation,
    q: search,
    drill: drillChips({ bins: state.bins, days: state.days, scanner: state.scanner }, words.say).map((c) => c.label),
    sort: sortColumn ? words.words.columns[sortColumn] : state.sort,
    group: state.group ? words.say.t(`bar.${GROUPING_WORD[state.group]}`) : undefined,
    crop: state.crop === undefined ? undefined : cropName(state.crop, words.say.t),
    targetsText: targetLines(targets, crops, words.print, words.say.f).join('; '),
  };
}
