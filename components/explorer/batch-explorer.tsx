'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { BATCH_FIELDS } from '@/lib/contract';
import { csvRow, csvRows } from '@/lib/csv';
import { rangeToQuery } from '@/lib/explorer/date-range';
import { ApiFailure } from '@/lib/explorer/api-failure';
import { cropsOf, filterRows, keepOnly, sortRows, summarize, type Row } from '@/lib/explorer/rows';
import type { SortField } from '@/lib/explorer/url-state';
import { BatchDetail } from './batch-detail';
import { BatchTable } from './batch-table';
import { COLUMNS } from './columns';
import { FiltersBar } from './filters-bar';
import { LoadStatus } from './load-status';
import { RangePicker } from './range-picker';
import { SummaryCards } from './summary-cards';
import { useBatchLoad } from './use-batch-load';
import { useExplorerState } from './use-explorer-state';
import { useSearchText } from './use-search-text';
import { useThrottled } from './use-throttled';
import { WhenVisible } from './when-visible';
import styles from './explorer.module.css';

const Charts = dynamic(() => import('./charts'), {
  ssr: false,
  loading: () => <p className={styles.muted}>Loading charts…</p>,
});

export function BatchExplorer() {
  const [client] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={client}>
      <Explorer />
    </QueryClientProvider>
  );
}

function Explorer() {
  const router = useRouter();
  const { state, dateError, update } = useExplorerState();
  const range = useMemo(() => rangeToQuery(state.from, state.to, state.tz), [state.from, state.to, state.tz]);
  const { rows, complete, error, loading, resume } = useBatchLoad(range, !dateError);
  const [open, setOpen] = useState<Row | null>(null);

  useEffect(() => {
    if (error instanceof ApiFailure && error.status === 401) {
      router.replace(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
  }, [error, router]);

  const [search, setSearch] = useSearchText(state.q, update);
  const filterNow = useMemo(
    () => ({ q: search, crop: state.crop, warn: state.warn, below: state.below, target: state.target }),
    [search, state.crop, state.warn, state.below, state.target],
  );
  // Typing stays responsive: the table catches up with the filter in a lower-priority render.
  const filter = useDeferredValue(filterNow);
  // Rows come in creation order. Filtering them feeds what does not depend on the order (summary, charts:
  // sorting must not redraw them); sorting runs once per new rows or new order, and typing only narrows it.
  const matching = useMemo(() => filterRows(rows, filter), [rows, filter]);
  const sortedAll = useMemo(() => sortRows(rows, state.sort, state.dir), [rows, state.sort, state.dir]);
  const sorted = useMemo(() => keepOnly(sortedAll, matching), [sortedAll, matching]);
  const summary = useMemo(() => summarize(matching), [matching]);
  // Charts wait for the whole range (parts arrive side by side, so a partial chart would show gaps that are
  // not in the data) and for someone to scroll to them: they are the heaviest code and the heaviest drawing.
  // While someone types, they follow a moment later, after the table has been painted.
  const chartRows = useThrottled(useDeferredValue(matching), 250);
  const crops = useMemo(() => cropsOf(rows), [rows]);
  const hidden = useMemo(() => new Set(state.hide.split(',').filter(Boolean)), [state.hide]);
  const columns = useMemo(() => COLUMNS.filter((c) => !hidden.has(c.id)), [hidden]);

  const onSort = useCallback(
    (field: SortField) => update({ sort: field, dir: state.sort === field && state.dir === 'desc' ? 'asc' : 'desc' }),
    [update, state.sort, state.dir],
  );

  const onCrop = useCallback((crop: string) => update({ crop }), [update]);

  const exportCsv = () => {
    const csv = csvRow(BATCH_FIELDS) + csvRows(sorted.map((r) => r.batch), BATCH_FIELDS);
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `batches-${state.from ?? 'all'}-to-${state.to ?? 'all'}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const clearFilters = () => {
    setSearch('');
    update({ q: '', crop: undefined, warn: undefined, below: undefined });
  };
  const filtersActive = !!(search || state.crop || state.warn || state.below);
  return (
    <div className={styles.explorer}>
      <RangePicker state={state} update={update} />
      {dateError ? (
        <div role="alert" className={styles.error}>
          <p>
            <strong>Invalid date:</strong> {dateError}. Pick the days again, or choose a preset.
          </p>
        </div>
      ) : (
        <>
          <FiltersBar state={state} search={search} onSearch={setSearch} crops={crops} hidden={hidden} update={update} onExport={exportCsv} canExport={sorted.length > 0} />
          <LoadStatus loaded={rows.length} shown={sorted.length} complete={complete} error={error} onRetry={resume} />
          <SummaryCards summary={summary} />
          {loading ? (
            <div className={styles.skeleton} aria-hidden="true">
              {Array.from({ length: 8 }, (_, i) => (
                <div key={i} />
              ))}
            </div>
          ) : complete && rows.length === 0 ? (
            <div className={styles.empty}>
              <h2>No batches in this range</h2>
              <p>Try a wider date range, or choose “All time”.</p>
            </div>
          ) : complete && sorted.length === 0 && filtersActive ? (
            <div className={styles.empty}>
              <h2>No batches match these filters</h2>
              <button type="button" className="button" onClick={clearFilters}>
                Clear filters
              </button>
            </div>
          ) : (
            <BatchTable rows={sorted} columns={columns} zone={state.tz} target={state.target} sort={state.sort} dir={state.dir} onSort={onSort} onOpen={setOpen} />
          )}
          {rows.length > 0 &&
            (complete || error ? (
              <WhenVisible placeholder={<p className={styles.muted}>Charts appear here when you scroll to them.</p>}>
                <Charts rows={chartRows} zone={state.tz} target={state.target} onCrop={onCrop} />
              </WhenVisible>
            ) : (
              <p className={styles.muted}>The charts are drawn once every batch of the range has arrived.</p>
            ))}
        </>
      )}
      <BatchDetail row={open} zone={state.tz} onClose={() => setOpen(null)} />
    </div>
  );
}
