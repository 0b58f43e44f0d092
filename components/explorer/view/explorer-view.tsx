'use client';

import { useCallback, useEffect, useMemo, useState } from 'react';
import { useMessages, useTranslations } from 'use-intl';
import { rangeToQuery } from '@/lib/explorer/date-range';
import { cropColours } from '@/lib/explorer/crop-colors';
import { rowDrillOf, type RowDrill } from '@/lib/explorer/drill';
import type { DateRange } from '@/lib/contract';
import { exportFileName } from '@/lib/export/file-name';
import { missingSpans } from '@/lib/explorer/missing';
import { cropsOf, nextSortDir } from '@/lib/explorer/rows';
import { writeState, type DateError, type ExplorerState, type SortField } from '@/lib/explorer/url-state';
import { exportWords } from '@/lib/export/strings';
import { useReader } from '../../i18n/use-formats';
import { AnalysisBar } from '../analysis/analysis-bar';
import type { AnalysisInput, AnalysisView } from '../analysis/analysis';
import { BatchTable } from '../table/batch-table';
import { COLUMNS } from '../table/columns';
import type { ExportFormat } from '../export/exports';
import { DrillChips } from '../filters/drill-chips';
import { FiltersBar } from '../filters/filters-bar';
import { eachWhenIdle } from '../shared/idle';
import type { Completeness } from '../range/incomplete-note';
import { lazyNamed, lazyPart } from '../shared/lazy-part';
import { AsOfPrintNote, LoadProblem, LoadStatus } from '../range/load-status';
import { PrintReportButton } from '../print/print-report-button';
import { PrintingContext } from '../print/printing';
import { RangePicker } from '../range/range-picker';
import { useRangeDays } from '../range/use-range-days';
import { useRangeLabel } from '../range/use-range-label';
import { useRangeRows } from '../range/range-query';
import { SavedViews } from '../views/saved-views';
import { SummaryCards } from '../summary/summary-cards';
import { useComparison } from '../summary/use-comparison';
import { useExplorerState } from './use-explorer-state';
import { useOpenBatch } from '../table/use-open-batch';
import { usePrintReport } from '../print/use-print-report';
import { useSearchText } from '../filters/use-search-text';
import { useShownRows } from '../table/use-shown-rows';
import { useSignInOnExpiry } from '../range/use-sign-in-on-expiry';
import { useDescribeSpans, useUrlDayText } from '../shared/use-explorer-words';
import { useSpeech } from '../shared/use-speech';
import { useTargets } from '../targets/use-targets';
import { DefaultViewNotice } from '../views/default-view-notice';
import { WhenVisible } from '../shared/when-visible';
import styles from './explorer.module.css';

/** The range's instants, or null for All time (an open end: up to now). */
function rangeWindow(range: DateRange): { from: number; to: number } | null {
  if (!range.start_date) return null;
  return {
    from: Date.parse(range.start_date),
    to: range.end_date ? Math.floor(Date.parse(range.end_date)) + 1 : Date.now(),
  };
}

/** What a chart module still on its way shows meanwhile; on paper, should the browser's own print come first, how to get them. */
function Loading({ what }: { what: 'loadingCharts' | 'loadingControlCharts' }) {
  const t = useTranslations('explorer.view');
  const p = useTranslations('print');
  return (
    <p className={styles.muted}>
      <span className="screen-only">{t(what)}</span>
      <span className="print-only">{p('chartsNotDrawn')}</span>
    </p>
  );
}

const Charts = lazyPart(() => import('../charts/charts'), <Loading what="loadingCharts" />);
const ControlCharts = lazyPart(() => import('../charts/control-charts'), <Loading what="loadingControlCharts" />);
const UniformityChart = lazyPart(() => import('../charts/uniformity-chart'));
/*
 * What only some visits use loads on first use, and otherwise in an idle moment after the charts' code (so the
 * browser's own print finds the report's parts): the printed report's header and table, the grouped summary,
 * the targets editor, the detail dialog. The first screen's JavaScript stays within its budget.
 */
const PrintHeader = lazyNamed(() => import('../print/print-header').then((m) => m.PrintHeader));
const PrintTable = lazyNamed(() => import('../print/print-table').then((m) => m.PrintTable));
const GroupedSummary = lazyNamed(() => import('../analysis/grouped-summary').then((m) => m.GroupedSummary));
const TargetsPanel = lazyNamed(() => import('../targets/targets-panel').then((m) => m.TargetsPanel));
const BatchDetail = lazyNamed(() => import('../table/batch-detail').then((m) => m.BatchDetail));
const LATER_PARTS = [
  PrintHeader.preload,
  PrintTable.preload,
  GroupedSummary.preload,
  TargetsPanel.preload,
  BatchDetail.preload,
];

/** What is wrong with the URL's days, in the reader's words. */
function InvalidDate({ error }: { error: DateError }) {
  const t = useTranslations('explorer.view');
  const day = useUrlDayText();
  const reason =
    error.kind === 'order'
      ? t('dateOrder', { from: day(error.from), to: day(error.to) })
      : t(error.field === 'from' ? 'fromInvalid' : 'toInvalid', { value: error.value });
  return (
    <div role="alert" className={styles.error}>
      <p>{t.rich('invalidDate', { reason, strong: (chunks) => <strong>{chunks}</strong> })}</p>
    </div>
  );
}

type Props = {
  organisation: string;
  /** The organisation's default view this page load opened (a bare `/batches`), to say so; null otherwise. */
  defaultView: string | null;
};

/**
 * The page's layout: range, filters, status, summary, table, charts and the detail dialog; printed, the report
 * of the view (its header, the summary, every chart, the grouped summary, the batches) without the controls.
 */
export function ExplorerView({ organisation, defaultView }: Props) {
  const t = useTranslations('explorer');
  const describeSpans = useDescribeSpans();
  const { state, dateError: urlError, update } = useExplorerState();
  const words = exportWords(useMessages());
  const reader = useReader();
  const say = useSpeech();
  // The days the range stands for today (a rolling range's move on at midnight): the queries and caches key by them.
  const shown = useRangeDays(state);
  const { days: rangeDays } = shown;
  const dateError = urlError ?? shown.reversed;
  const rangeLabel = useRangeLabel()(state, shown);
  const range = useMemo(
    () => rangeToQuery(rangeDays.from, rangeDays.to, state.tz),
    [rangeDays.from, rangeDays.to, state.tz],
  );
  // The default view's notice stays until dismissed or until the view is changed.
  const [notice, setNotice] = useState(defaultView);
  const [openedAs] = useState(() => writeState(state));
  if (notice !== null && writeState(state) !== openedAs) setNotice(null);
  const { rows, complete, pending, error, loading, retry, asOf, refreshing, refreshFailed } = useRangeRows(
    range,
    !dateError,
  );
  const copy = useMemo(
    () =>
      asOf === undefined ? undefined : { asOf, refreshing, failed: refreshFailed, zone: state.tz, onRefresh: retry },
    [asOf, refreshing, refreshFailed, state.tz, retry],
  );
  useSignInOnExpiry(error);
  const detail = useOpenBatch(state.batch, rows, complete, update);
  const targetSet = useTargets(state, update);
  const { targets } = targetSet;
  const [targetsOpen, setTargetsOpen] = useState(false);
  const missing = useMemo(() => missingSpans(range, complete, pending), [range, complete, pending]);
  const completeness = useMemo<Completeness>(
    () => ({ missing, loaded: rows.length, stopped: error !== null, onRetry: retry, asOf }),
    [missing, rows.length, error, retry, asOf],
  );

  const [search, setSearch] = useSearchText(state.q, update);
  const drill = useMemo<RowDrill>(
    () => rowDrillOf({ bins: state.bins, days: state.days, tz: state.tz, scanner: state.scanner }),
    [state.bins, state.days, state.tz, state.scanner],
  );
  const filterNow = useMemo(
    () => ({ q: search, crop: state.crop, warn: state.warn, below: state.below, targets, drill }),
    [search, state.crop, state.warn, state.below, targets, drill],
  );
  const { sorted, summary, chartRows } = useShownRows(rows, filterNow, state.sort, state.dir, state.metric);
  const comparison = useComparison(state, rangeDays, filterNow, !dateError, complete);
  const crops = useMemo(() => cropsOf(rows), [rows]);
  const colours = useMemo(() => cropColours(crops), [crops]);
  const drillTo = useCallback((patch: Partial<ExplorerState>) => update(patch, 'push'), [update]);
  const { chart, focus, crop, bins, days, scanner, base, rules, spc, group, gsort, gdir, compare } = state;
  const view = useMemo<AnalysisView>(
    () => ({ chart, focus, crop, bins, days, scanner, base, rules, spc, group, gsort, gdir, compare }),
    [chart, focus, crop, bins, days, scanner, base, rules, spc, group, gsort, gdir, compare],
  );
  // Once per range (an open end reads the clock): the charts key their cached aggregations by it.
  const rangeSpan = useMemo(() => rangeWindow(range), [range]);
  const filtersActive = !!(
    search ||
    state.crop ||
    state.warn ||
    state.below ||
    state.bins ||
    state.days ||
    state.scanner
  );
  const noMatch = search.trim() ? 'search' : filtersActive ? 'filters' : null;
  const analysis = useMemo<AnalysisInput>(
    () => ({
      rows: chartRows.rows,
      cross: chartRows,
      window: rangeSpan,
      zone: state.tz,
      targets,
      metric: state.metric,
      colours,
      completeness,
      drill: drillTo,
      openBatch: detail.open,
      noMatch,
      view,
      comparison: comparison.chart,
    }),
    [
      chartRows,
      rangeSpan,
      state.tz,
      state.metric,
      targets,
      colours,
      completeness,
      drillTo,
      detail.open,
      noMatch,
      view,
      comparison.chart,
    ],
  );
  const hidden = useMemo(() => new Set(state.hide.split(',').filter(Boolean)), [state.hide]);
  const columns = useMemo(() => COLUMNS.filter((c) => !hidden.has(c.id)), [hidden]);
  const report = usePrintReport();
  const chartsShown = rows.length > 0 && (complete || error !== null);
  // The charts' code in an idle moment once they can be drawn, so that the browser's own print (which cannot
  // wait for code) finds them.
  // The charts' and the report's code in idle moments once the charts can be drawn, so that the browser's own
  // print (which cannot wait for code) finds them. (Fetching it a few seconds later kept recharts' evaluation out
  // of Lighthouse's blocking time, but a Ctrl+P right after the load then printed without charts.)
  useEffect(() => {
    if (chartsShown)
      return eachWhenIdle([Charts.preload, ControlCharts.preload, UniformityChart.preload, ...LATER_PARTS]);
  }, [chartsShown]);
  // The dialog's code comes with its first opening (a link may open it at once); it then stays mounted.
  const [detailUsed, setDetailUsed] = useState(false);
  if (!detailUsed && (detail.row !== null || detail.missing !== null)) setDetailUsed(true);

  const onSort = useCallback(
    (field: SortField) => update({ sort: field, dir: nextSortDir(field, state.sort, state.dir) }),
    [update, state.sort, state.dir],
  );
  const tp = useTranslations('print');
  // An export of a view whose batches have not all arrived says so in its name and its first line.
  const exportRows = async (format: ExportFormat) => {
    const [{ exportTable }, { viewSheetOf }] = await Promise.all([
      import('../export/exports'),
      import('@/lib/export/view-table'),
    ]);
    return exportTable(format, {
      rows: sorted,
      hidden,
      ctx: { zone: state.tz, targets, words },
      locale: reader.locale,
      completeness: { complete, loaded: sorted.length, missing, zone: state.tz, asOf },
      // The view sheet in the reader's words: the sort column, grouping, crop and targets as the page names them.
      view: viewSheetOf(state, organisation, targets, crops, { say, print: tp, words }, search),
      file: { organisation, from: rangeDays.from, to: rangeDays.to, crop: state.crop },
    });
  };
  const clearFilters = () => {
    setSearch('');
    update({
      q: '',
      crop: undefined,
      warn: undefined,
      below: undefined,
      bins: undefined,
      days: undefined,
      scanner: undefined,
    });
  };

  return (
    <PrintingContext value={report.printing}>
      <div className={styles.explorer}>
        {report.madeAt !== null && (
          <PrintHeader
            organisation={organisation}
            state={state}
            days={rangeDays}
            rangeLabel={rangeLabel}
            search={search}
            targets={targets}
            crops={crops}
            targetsUnsaved={targetSet.unsaved}
            comparison={comparison.cards}
            columns={COLUMNS}
            hiddenColumns={COLUMNS.filter((c) => hidden.has(c.id))}
            madeAt={report.madeAt}
          />
        )}
        {notice !== null && <DefaultViewNotice name={notice} zone={state.tz} onDone={() => setNotice(null)} />}
        <RangePicker state={state} shown={shown} update={update} />
        <SavedViews />
        {dateError ? (
          <InvalidDate error={dateError} />
        ) : (
          <>
            <FiltersBar
              state={state}
              search={search}
              onSearch={setSearch}
              crops={crops}
              hidden={hidden}
              update={update}
              onExport={exportRows}
              canExport={sorted.length > 0}
              targetsOpen={targetsOpen}
              targetsUnsaved={targetSet.unsaved}
              onTargets={() => setTargetsOpen((o) => !o)}
            />
            {targetsOpen && (
              <div id="targets-panel">
                <TargetsPanel crops={crops} zone={state.tz} t={targetSet} onClose={() => setTargetsOpen(false)} />
              </div>
            )}
            <AnalysisBar state={state} update={update} />
            <DrillChips state={state} update={update} />
            <div className={styles.statusBar}>
              <LoadStatus
                loaded={rows.length}
                shown={sorted.length}
                complete={complete}
                stopped={error !== null}
                copy={copy}
              />
              <PrintReportButton preparing={report.preparing} onPrint={report.print} disabled={loading} />
            </div>
            <div className="print-part">
              {copy && <AsOfPrintNote copy={copy} />}
              <SummaryCards
                summary={summary}
                completeness={completeness}
                zone={state.tz}
                judged={targetSet.ready}
                comparison={comparison.cards}
                problem={error && <LoadProblem error={error} loaded={rows.length} onRetry={retry} />}
              />
            </div>
            {loading ? (
              <div className={styles.skeleton} aria-hidden="true">
                {Array.from({ length: 8 }, (_, i) => (
                  <div key={i} />
                ))}
              </div>
            ) : complete && rows.length === 0 ? (
              <div className={`${styles.empty} print-part`}>
                <h2>{t('view.emptyRange')}</h2>
                <p>{t('view.emptyRangeHint')}</p>
              </div>
            ) : complete && sorted.length === 0 && filtersActive ? (
              <div className={`${styles.empty} print-part`}>
                <h2>{t('view.noMatch')}</h2>
                <button type="button" className="button" onClick={clearFilters}>
                  {t('view.clearFilters')}
                </button>
              </div>
            ) : (
              <>
                {state.group && (
                  <div className={`${styles.printGrouped} print-part`}>
                    <GroupedSummary
                      input={analysis}
                      grouping={state.group}
                      update={update}
                      fileName={exportFileName(
                        { organisation, from: rangeDays.from, to: rangeDays.to, crop: state.crop },
                        'csv',
                      )}
                    />
                  </div>
                )}
                <BatchTable
                  rows={sorted}
                  columns={columns}
                  zone={state.tz}
                  targets={targets}
                  sort={state.sort}
                  dir={state.dir}
                  onSort={onSort}
                  onOpen={detail.open}
                />
                {report.printing && (
                  <PrintTable
                    rows={sorted}
                    columns={columns}
                    zone={state.tz}
                    targets={targets}
                    sort={state.sort}
                    dir={state.dir}
                  />
                )}
              </>
            )}
            {/* Charts wait for the load to end (parts arrive side by side, so a chart drawn midway would show gaps
              that are not in the data; a stopped load is drawn with its gaps marked) and for someone to scroll to
              them: the heaviest code and drawing. */}
            {rows.length > 0 && (
              <h2 id="charts" tabIndex={-1} className={`${styles.sectionTitle} print-part`}>
                {t('view.charts')}
              </h2>
            )}
            {rows.length > 0 &&
              (chartsShown ? (
                <div className="print-part">
                  <WhenVisible placeholder={<p className={styles.muted}>{t('view.chartsOnScroll')}</p>}>
                    <Charts input={analysis} />
                    <ControlCharts input={analysis} />
                    <UniformityChart input={analysis} />
                  </WhenVisible>
                </div>
              ) : (
                <p className={`${styles.incomplete} print-part`}>
                  <strong className={styles.incompleteTag}>{t('incompleteTag')}</strong>&nbsp;{t('view.chartsWait')}
                  {missing.length > 0 && ` ${t('view.stillLoading', { spans: describeSpans(missing, state.tz) })}`}
                </p>
              ))}
          </>
        )}
        {detailUsed && (
          <BatchDetail
            row={detail.row}
            missing={detail.missing}
            rows={sorted}
            zone={state.tz}
            targets={targets}
            onShow={detail.show}
            onClose={detail.close}
          />
        )}
      </div>
    </PrintingContext>
  );
}
