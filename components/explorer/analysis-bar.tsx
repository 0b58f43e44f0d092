'use client';

import { METRIC_INFO, METRICS, type Metric } from '@/lib/explorer/metrics';
import type { Comparison, ExplorerState, Grouping } from '@/lib/explorer/url-state';
import styles from './explorer.module.css';

type Props = {
  state: ExplorerState;
  update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;
};

export const GROUP_LABELS: [Grouping | '', string][] = [
  ['', 'Nothing'], ['crop', 'Crop'], ['week', 'Week'], ['month', 'Month'], ['scanner', 'Scanner'], ['crop-week', 'Crop and week'],
];
const COMPARE_LABELS: [Comparison | '', string][] = [['', 'Nothing'], ['previous', 'Previous period'], ['last-year', 'Same period last year']];

/** A labelled select of `[value, label]` options; '' stands for none (written to the URL as absent). */
function Choice<T extends string>({ id, label, value, options, onChange }: { id: string; label: string; value: T | ''; options: readonly (readonly [T | '', string])[]; onChange: (v: T | undefined) => void }) {
  return (
    <span>
      <label htmlFor={id}>{label}</label>{' '}
      <select id={id} value={value} onChange={(e) => onChange((e.target.value || undefined) as T | undefined)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </span>
  );
}

const METRIC_LABELS = METRICS.map((m) => [m, METRIC_INFO[m].label] as const);

/** What the analysis shows: the metric of every chart, the period compared with, and the grouping of the summary. */
export function AnalysisBar({ state, update }: Props) {
  return (
    <div className={styles.filters} role="group" aria-label="Analysis">
      <Choice<Metric> id="metric-select" label="Metric" value={state.metric} options={METRIC_LABELS} onChange={(metric) => update({ metric }, 'push')} />
      <Choice<Comparison> id="compare-select" label="Compare with" value={state.compare ?? ''} options={COMPARE_LABELS} onChange={(compare) => update({ compare }, 'push')} />
      <Choice<Grouping> id="group-select" label="Group by" value={state.group ?? ''} options={GROUP_LABELS} onChange={(group) => update({ group }, 'push')} />
    </div>
  );
}
