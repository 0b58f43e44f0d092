'use client';

import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { PRESETS } from '@/lib/explorer/date-range';
import { ALL, dayCount, NOW, PRESET_ENDS, presetOf, todayIn, withEnd } from '@/lib/explorer/range/rolling';
import { readState, type ExplorerState } from '@/lib/explorer/url-state';
import { useFormats } from '../../i18n/use-formats';
import { DayField } from '../fields/day-field';
import type { ShownRange } from './use-range-days';
import { useRangeLabel } from './use-range-label';
import { useUrlDayText } from '../shared/use-explorer-words';
import { ZoneField } from '../fields/zone-field';
import styles from '../view/explorer.module.css';
import own from './range-picker.module.css';

type Props = {
  state: ExplorerState;
  /** The days the URL's range stands for today. */
  shown: ShownRange;
  update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;
};

type Moved = { end: 'from' | 'to'; day: string; n: number };

/**
 * Presets (rolling ranges in the URL: `now-7d` … `all`), custom From/To calendar days, and the zone those days
 * are read in. A rolling range is named with the days it stands for today. Setting one end past the other moves
 * the other along, the range keeping its length: moving a range later is one change, not two.
 */
export function RangePicker({ state, shown, update }: Props) {
  const t = useTranslations('explorer.range');
  const f = useFormats();
  const day = useUrlDayText();
  const label = useRangeLabel()(state, shown);
  const [moved, setMoved] = useState<Moved | null>(null);
  const active = presetOf(state.from, state.to);
  const commit = (end: 'from' | 'to', value: string | undefined) => {
    // The other end as the address bar has it now, not as this render saw it: it may have changed a moment ago.
    const { from, to, tz } = readState(new URLSearchParams(window.location.search)).state;
    setMoved(null);
    // A field emptied on purpose opens that end: All time's start, or up to today.
    if (value === undefined) return update(end === 'from' ? { from: ALL } : { to: NOW }, 'push');
    const next = withEnd({ from, to }, end, value, todayIn(tz));
    update({ from: next.from, to: next.to }, 'push');
    if (next.moved) setMoved({ ...next.moved, n: dayCount(next.from, next.to) });
  };
  return (
    <fieldset className={styles.range}>
      <legend className="visually-hidden">{t('legend')}</legend>
      <div className={styles.presets} role="group" aria-label={t('presets')}>
        {PRESETS.map((id) => (
          <button
            key={id}
            type="button"
            className="button"
            aria-pressed={active === id}
            onClick={() => {
              setMoved(null);
              update(PRESET_ENDS[id], 'push');
            }}
          >
            {t(`preset.${id}`)}
          </button>
        ))}
      </div>
      <DayField label={t('from')} value={shown.days.from} onCommit={(from) => commit('from', from)} />
      <DayField label={t('to')} value={shown.days.to} onCommit={(to) => commit('to', to)} />
      <ZoneField value={state.tz} onCommit={(tz) => update({ tz }, 'push')} />
      <p className={own.shown} aria-live="polite">
        {label && <span className={own.label}>{t('shows', { name: label.name, days: label.days })}</span>}
        {moved && (
          <span className={own.moved}>
            {t(moved.end === 'to' ? 'toFollowed' : 'fromFollowed', {
              day: day(moved.day),
              n: moved.n,
              count: f.count(moved.n),
            })}
          </span>
        )}
      </p>
    </fieldset>
  );
}
