'use client';

import { useId } from 'react';
import { useTranslations } from 'use-intl';
import { RULES, RUN, type Rules } from '@/lib/explorer/control/rules';
import styles from '../control-charts.module.css';

/** Which rules make a batch out of control (`rules=` in the URL): beyond the limits only, or also runs. */
export function RulesField({ value, onChange }: { value: Rules; onChange: (rules: Rules) => void }) {
  const id = useId();
  const t = useTranslations('analysis.control');
  return (
    <fieldset className={styles.baseline}>
      <legend>{t('rulesLegend')}</legend>
      {RULES.map((rules) => (
        <label key={rules}>
          <input type="radio" name={`${id}-rules`} checked={value === rules} onChange={() => onChange(rules)} />{' '}
          {rules === 'limits' ? t('rulesLimits') : t('rulesRuns', { length: RUN })}
        </label>
      ))}
    </fieldset>
  );
}
