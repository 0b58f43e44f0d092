'use client';

import { useDeferredValue, useMemo } from 'react';
import { DEFAULT_TARGETS } from '@/lib/contract/targets';
import { filterRows, keepOnly, sortRows, summarize, type Row, type RowFilter } from '@/lib/explorer/rows';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { useThrottled } from './use-throttled';

/**
 * The rows the page shows, from every loaded row, the filter and the order. Rows come in creation order;
 * filtering them feeds what does not depend on the order (summary, charts: sorting must not redraw them);
 * sorting runs once per new rows or new order, and typing only narrows the sorted list.
 */
export function useShownRows(rows: readonly Row[], filterNow: RowFilter, sort: ExplorerState['sort'], dir: ExplorerState['dir']) {
  // Typing stays responsive: the table catches up with the filter in a lower-priority render.
  const filter = useDeferredValue(filterNow);
  const matching = useMemo(() => filterRows(rows, filter), [rows, filter]);
  // Only the target column's order depends on the targets: editing a target must not re-sort by name.
  const sortTargets = sort === 'target' ? filter.targets : DEFAULT_TARGETS;
  const sortedAll = useMemo(() => sortRows(rows, sort, dir, sortTargets), [rows, sort, dir, sortTargets]);
  const sorted = useMemo(() => keepOnly(sortedAll, matching), [sortedAll, matching]);
  const summary = useMemo(() => summarize(matching, filter.targets), [matching, filter.targets]);
  // While someone types, the charts follow a moment later, after the table has been painted.
  const chartRows = useThrottled(useDeferredValue(matching), 250);
  return { sorted, summary, chartRows };
}
