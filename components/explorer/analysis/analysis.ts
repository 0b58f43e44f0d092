import type { Targets } from '@/lib/contract';
import type { Zone } from '@/lib/explorer/date-range';
import type { Metric } from '@/lib/explorer/metrics';
import type { Row } from '@/lib/explorer/rows';
import type { ExplorerState } from '@/lib/explorer/url-state';
import type { Completeness } from '../range/incomplete-note';
import type { ChartRows } from '../table/use-shown-rows';

/** A drill-down: a change of the URL's filters that back/forward undo. */
export type DrillTo = (patch: Partial<ExplorerState>) => void;

/** What every analysis view (charts, grouped summary, control and uniformity charts) is drawn from. */
export type AnalysisInput = {
  /** The batches the table shows (every filter and drill-down applied), in creation order. */
  rows: readonly Row[];
  /** The same without one drill-down each: a chart is drawn from the rows without its own (see use-shown-rows). */
  cross: Omit<ChartRows, 'rows'>;
  /** The range's instants (null: All time), for time axes that show the whole range. */
  window: { from: number; to: number } | null;
  zone: Zone;
  targets: Targets;
  metric: Metric;
  /** Each crop key's colour (see crop-colors.ts), the same in every chart. */
  colours: ReadonlyMap<string, string>;
  completeness: Completeness;
  drill: DrillTo;
  /** Opens a batch's detail dialog (a history entry of its own). */
  openBatch: (row: Row) => void;
  /** Why the filters could leave no batch to draw: the search, or other filters (null: none is set). */
  noMatch: 'search' | 'filters' | null;
  /** The URL's analysis settings (only these: sorting the table or opening a batch must not redraw charts). */
  view: AnalysisView;
  /**
   * The period of Compare with (see use-comparison.ts): its batches under the same filter, in creation order;
   * `shiftMs` added to a batch's time aligns it with the current window (start on start); `label` names the
   * period (`17–23 Mar 2025 (previous period)`); not `complete` while it loads or after its load stopped.
   */
  comparison?: { rows: readonly Row[]; shiftMs: number; label: string; complete: boolean };
};

export type AnalysisView = Pick<
  ExplorerState,
  | 'chart'
  | 'focus'
  | 'crop'
  | 'bins'
  | 'days'
  | 'scanner'
  | 'base'
  | 'rules'
  | 'spc'
  | 'group'
  | 'gsort'
  | 'gdir'
  | 'compare'
>;
