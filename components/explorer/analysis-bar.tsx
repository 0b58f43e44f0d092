'use client';

import { METRIC_INFO, METRICS, type Metric } from '@/lib/explorer/metrics';
import type { Comparison, ExplorerState, Grouping } from '@/lib/explorer/url-state';
import styles from './explorer.module.css';

type Props = {
  state: ExplorerState;
  update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;
};

const GROUP_LABELS: [Grouping | '', string][] = [
  ['', 'Nothing'], ['crop', 'Crop'], ['week', 'Week'], ['month', 'Month'], ['scanner', 'Scanner'], ['crop-week', 'Crop and week'],
];
const COMPARE_LABELS: [Comparison | '', string][] = [['', 'Nothing'], ['previous', 'Previous period'], ['last-year', 'Same period last year']];

/** What the analysis shows: the metric of every chart, the period compared with, and the grouping of the summary. */
export function AnalysisBar({ state, update }: Props) {
  return (
    <div className={styles.filters} role="group" aria-label="Analysis">
      <span>
        <label htmlFor="metric-select">Metric</label>{' '}
        <select id="metric-select" value={state.metric} onChange={(e) => update({ metric: e.target.value as Metric }, 'push')}>
          {METRICS.map((m) => (
            <option key={m} value={m}>
              {METRIC_INFO[m].label}
            </option>
          ))}
        </select>
      </span>
      <span>
        <label htmlFor="compare-select">Compare with</label>{' '}
        <select id="compare-select" value={state.compare ?? ''} onChange={(e) => update({ compare: (e.target.value || undefined) as Comparison | undefined }, 'push')}>
          {COMPARE_LABELS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </span>
      <span>
        <label htmlFor="group-select">Group by</label>{' '}
        <select id="group-select" value={state.group ?? ''} onChange={(e) => update({ group: (e.target.value || undefined) as Grouping | undefined }, 'push')}>
          {GROUP_LABELS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}
