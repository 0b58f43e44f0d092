'use client';

import { useTranslations } from 'use-intl';
import { METRICS, type Metric } from '@/lib/explorer/metrics';
import type { Comparison, ExplorerState, Grouping } from '@/lib/explorer/url-state';
import styles from '../view/explorer.module.css';

type Props = {
  state: ExplorerState;
  update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;
};

/** Each option's message in `analysis.bar`. */
export const GROUPS = [
  ['', 'nothing'],
  ['crop', 'crop'],
  ['week', 'week'],
  ['month', 'month'],
  ['scanner', 'scanner'],
  ['crop-week', 'cropWeek'],
] as const satisfies readonly (readonly [Grouping | '', string])[];
const COMPARISONS = [
  ['', 'nothing'],
  ['previous', 'previous'],
  ['last-year', 'lastYear'],
] as const satisfies readonly (readonly [Comparison | '', string])[];

/** A labelled select of `[value, label]` options; '' stands for none (written to the URL as absent). */
function Choice<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T | '';
  options: readonly (readonly [T | '', string])[];
  onChange: (v: T | undefined) => void;
}) {
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

/** What the analysis shows: the metric of every chart, the period compared with, and the grouping of the summary. */
export function AnalysisBar({ state, update }: Props) {
  const t = useTranslations('analysis');
  const metrics = METRICS.map((m) => [m, t(`metrics.${m}.label`)] as const);
  const comparisons = COMPARISONS.map(([v, key]) => [v, t(`bar.${key}`)] as const);
  const groups = GROUPS.map(([v, key]) => [v, t(`bar.${key}`)] as const);
  return (
    <div className={styles.filters} role="group" aria-label={t('bar.label')}>
      <Choice<Metric>
        id="metric-select"
        label={t('bar.metric')}
        value={state.metric}
        options={metrics}
        onChange={(metric) => update({ metric }, 'push')}
      />
      <Choice<Comparison>
        id="compare-select"
        label={t('bar.compareWith')}
        value={state.compare ?? ''}
        options={comparisons}
        onChange={(compare) => update({ compare }, 'push')}
      />
      <Choice<Grouping>
        id="group-select"
        label={t('bar.groupBy')}
        value={state.group ?? ''}
        options={groups}
        onChange={(group) => update({ group }, 'push')}
      />
    </div>
  );
}
