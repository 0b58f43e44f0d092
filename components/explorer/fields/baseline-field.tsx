'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'use-intl';
import type { DaysDrill } from '@/lib/explorer/drill';
import { BASELINE_BATCHES } from '@/lib/explorer/spc';
import styles from '../charts/control-charts.module.css';

type Props = {
  /** The baseline period in the URL (`base`), or null: the first batches of each crop. */
  value: DaysDrill | null;
  onChange: (days: DaysDrill | null) => void;
};

/**
 * The control charts' baseline: the first batches (the default) or a period of days. The days are drafts until
 * Apply, so a half-typed date never redraws the charts.
 */
export function BaselineField({ value, onChange }: Props) {
  const id = useId();
  const t = useTranslations('analysis.baseline');
  const [period, setPeriod] = useState(value !== null);
  const [from, setFrom] = useState(value?.from ?? '');
  const [to, setTo] = useState(value?.to ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // Back/forward or a link changed the URL: show its baseline.
    setShown(value);
    setPeriod(value !== null);
    setFrom(value?.from ?? '');
    setTo(value?.to ?? '');
  }
  const ready = from !== '' && to !== '' && from <= to;
  return (
    <fieldset className={styles.baseline}>
      <legend>{t('legend')}</legend>
      <label>
        <input
          type="radio"
          name={`${id}-kind`}
          checked={!period}
          onChange={() => {
            setPeriod(false);
            if (value) onChange(null);
          }}
        />{' '}
        {t('first', { count: BASELINE_BATCHES })}
      </label>
      <label>
        <input type="radio" name={`${id}-kind`} checked={period} onChange={() => setPeriod(true)} /> {t('period')}
      </label>
      {period && (
        <form
          className={styles.period}
          onSubmit={(e) => {
            e.preventDefault();
            if (ready) onChange({ from, to });
          }}
        >
          <label htmlFor={`${id}-from`}>{t('from')}</label>
          <input
            id={`${id}-from`}
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => setFrom(e.target.value)}
          />
          <label htmlFor={`${id}-to`}>{t('to')}</label>
          <input
            id={`${id}-to`}
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => setTo(e.target.value)}
          />
          <button type="submit" className="button" disabled={!ready || (value?.from === from && value?.to === to)}>
            {t('apply')}
          </button>
        </form>
      )}
    </fieldset>
  );
}
