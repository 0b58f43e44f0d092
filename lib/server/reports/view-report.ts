import 'server-only';
import ExcelJS from 'exceljs';
import { OrderedLoad } from '../../batch-api';
import type { DateRange } from '../../contract';
import type { Targets } from '../../contract/targets';
import { rangeToQuery } from '../../explorer/date-range';
import { ALL, NOW, resolveRange, todayIn, type RangeDays } from '../../explorer/range/rolling';
import { cropsOf, rowMaker, summarize, type Row, type Summary } from '../../explorer/rows';
import type { Speech } from '../../explorer/speech';
import type { PrintT } from '../../explorer/targets/target-lines';
import { targetsIn, urlTargets } from '../../explorer/targets/view-targets';
import { readState, type ExplorerState } from '../../explorer/url-state';
import { exportFileName } from '../../export/file-name';
import { exportWords, type ExportWords } from '../../export/strings';
import { writeTableWorkbook } from '../../export/table-workbook';
import { shownRowsOf, viewColumns, viewSheetOf } from '../../export/view-table';
import { formatsFor } from '../../i18n/formats';
import { readerLocale, type Language } from '../../i18n/languages';
import { MESSAGES } from '../../i18n/messages';
import { getConfig } from '../config';
import { upstreamFor } from '../org/upstream';
import { reportTranslator } from './report-translator';
import { settingsStore, TARGETS_SETTING } from '../settings';

/** The batches of a view at one moment: its range resolved in its zone, its rows as its table shows them. */
export type ViewBatches = {
  state: ExplorerState;
  /** The calendar days the range stood for when the report ran (an open end: undefined). */
  days: RangeDays;
  range: DateRange;
  targets: Targets;
  /** The rows the view's table shows, in its order. */
  rows: Row[];
  /** Every crop of the range's batches, for the targets the View sheet lists. */
  crops: string[];
  summary: Summary;
};

/**
 * Loads a saved view's batches on the server, as the page would show them at `now`: a rolling range
 * (`from=now-7d&to=now`) resolved to the days it stands for in the view's zone that day, the organisation's
 * saved targets unless the view carries its own, every filter, drill-down and the order of its table.
 */
export async function loadViewBatches(
  organisation: { id: string },
  query: string,
  now: number,
  signal?: AbortSignal,
): Promise<ViewBatches> {
  const { state } = readState(new URLSearchParams(query));
  const days = resolveRange(state.from ?? ALL, state.to ?? NOW, todayIn(state.tz, now));
  const range = rangeToQuery(days.from, days.to, state.tz);
  const [client, saved] = await Promise.all([
    upstreamFor(organisation),
    settingsStore().get(organisation.id, TARGETS_SETTING),
  ]);
  const targets = targetsIn(urlTargets(state.targets), state.target, saved.value);
  const make = rowMaker([]);
  const all: Row[] = [];
  const load = new OrderedLoad(client, range, { concurrency: getConfig().concurrency, signal, now: () => now });
  for await (const chunk of load.chunks()) for (const batch of chunk) all.push(make(batch));
  const rows = shownRowsOf(all, state, targets);
  return { state, days, range, targets, rows, crops: cropsOf(all), summary: summarize(rows, targets) };
}

/** One language's words for a report: the export's, the analysis's and the print report's, and its formatters. */
export type ReportWords = { language: Language; words: ExportWords; say: Speech; print: PrintT };

export function reportWords(language: Language): ReportWords {
  const reader = readerLocale(null, language);
  return {
    language,
    words: exportWords(MESSAGES[language]),
    say: { f: formatsFor(reader.locale), t: reportTranslator(reader, 'analysis') },
    print: reportTranslator(reader, 'print'),
  };
}

/**
 * The view's workbook as the Export menu's Excel (.xlsx) makes it: the table's rows, columns, headers with
 * units and the zone, in the language's words, and the View sheet. Named as the Export menu names it.
 */
export async function viewWorkbook(
  organisation: string,
  view: ViewBatches,
  w: ReportWords,
  made: number,
): Promise<{ filename: string; content: Buffer }> {
  const { state, targets, rows, crops, days } = view;
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date(made);
  writeTableWorkbook(workbook, {
    rows,
    columns: viewColumns(state),
    ctx: { zone: state.tz, targets, words: w.words },
    view: viewSheetOf(state, organisation, targets, crops, w),
    note: null,
    made,
  });
  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  return {
    filename: exportFileName({ organisation, from: days.from, to: days.to, crop: state.crop }, 'xlsx'),
    content,
  };
}
