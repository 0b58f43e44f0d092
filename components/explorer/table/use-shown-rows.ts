'use client';

import { useDeferredValue, useMemo } from 'react';
import { DEFAULT_TARGETS } from '@/lib/contract/targets';
import { filterRows, keepOnly, sortRows, summarize, type Row, type RowFilter } from '@/lib/explorer/rows';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { NO_DRILL } from '@/lib/explorer/drill';
import type { Metric } from '@/lib/explorer/metrics';
import { useThrottled } from '../shared/use-throttled';

/** The rows behind the charts: every filter, and every filter but a chart's own drill-down. */
export type ChartRows = {
  rows: readonly Row[];
  allCrops: readonly Row[];
  allBins: readonly Row[];
  allDays: readonly Row[];
  /** Without germination and CV bins: the germination vs uniformity chart's own drill-down. */
  allUniformity: readonly Row[];
};

/**
 * The rows the page shows, from every loaded row, the filter and the order. Rows come in creation order;
 * filtering them feeds what does not depend on the order (summary, charts: sorting must not redraw them);
 * sorting runs once per new rows or new order, and typing only narrows the sorted list.
 */
export function useShownRows(
  rows: readonly Row[],
  filterNow: RowFilter,
  sort: ExplorerState['sort'],
  dir: ExplorerState['dir'],
  metric: Metric,
) {
  // Typing stays responsive: the table catches up with the filter in a lower-priority render.
  const filter = useDeferredValue(filterNow);
  const matching = useMemo(() => filterRows(rows, filter), [rows, filter]);
  // Only the Target and Off target columns' orders depend on the targets: editing one must not re-sort by name.
  const sortTargets = sort === 'target' || sort === 'below' ? filter.targets : DEFAULT_TARGETS;
  const sortedAll = useMemo(() => sortRows(rows, sort, dir, sortTargets), [rows, sort, dir, sortTargets]);
  const sorted = useMemo(() => keepOnly(sortedAll, matching), [sortedAll, matching]);
  const summary = useMemo(() => summarize(matching, filter.targets), [matching, filter.targets]);
  // A chart does not filter itself: the crop chart shows every crop with the chosen one marked, the
  // distribution every bin, the time chart every bucket; each is drawn from the rows without its own drill-down.
  const drill = filter.drill ?? NO_DRILL;
  // Only a bin of the metric shown depends on the metric: switching it must not hand the charts new row sets.
  const binOfMetric = drill.bins.find((b) => b.metric === metric);
  const allBins = useMemo(
    () =>
      binOfMetric
        ? filterRows(rows, { ...filter, drill: { ...drill, bins: drill.bins.filter((b) => b !== binOfMetric) } })
        : matching,
    [rows, filter, drill, binOfMetric, matching],
  );
  const chartSets = useMemo<ChartRows>(
    () => ({
      rows: matching,
      allCrops: filter.crop === undefined ? matching : filterRows(rows, { ...filter, crop: undefined }),
      allBins,
      allDays: drill.within ? filterRows(rows, { ...filter, drill: { ...drill, within: null } }) : matching,
      allUniformity: drill.bins.some((b) => b.metric === 'germination' || b.metric === 'cv')
        ? filterRows(rows, {
            ...filter,
            drill: { ...drill, bins: drill.bins.filter((b) => b.metric !== 'germination' && b.metric !== 'cv') },
          })
        : matching,
    }),
    [rows, filter, drill, matching, allBins],
  );
  // While someone types, the charts follow a moment later, after the table has been painted.
  const chartRows = useThrottled(useDeferredValue(chartSets), 250);
  return { sorted, summary, chartRows };
}
