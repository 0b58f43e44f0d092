'use client';

import { useTranslations } from 'use-intl';
import { matchingPreset, presetRange, PRESETS } from '@/lib/explorer/date-range';
import { readState, type ExplorerState } from '@/lib/explorer/url-state';
import { DayField } from './day-field';
import { useUrlDayText } from './use-explorer-words';
import { ZoneField } from './zone-field';
import styles from './explorer.module.css';

type Props = { state: ExplorerState; update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void };

/** Presets, custom From/To calendar days, and the zone those days are read in. */
export function RangePicker({ state, update }: Props) {
  const t = useTranslations('explorer.range');
  const day = useUrlDayText();
  // The other end as the address bar has it now, not as this render saw it: it may have changed a moment ago.
  const latest = () => readState(new URLSearchParams(window.location.search)).state;
  const active = matchingPreset(state.from, state.to, state.tz);
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
              const r = presetRange(id, state.tz);
              update({ from: r.from, to: r.to }, 'push');
            }}
          >
            {t(`preset.${id}`)}
          </button>
        ))}
      </div>
      <DayField
        label={t('from')}
        value={state.from}
        conflict={(from) => {
          const { to } = latest();
          return to && from > to ? t('afterTo', { day: day(to) }) : null;
        }}
        onCommit={(from) => update({ from }, 'push')}
      />
      <DayField
        label={t('to')}
        value={state.to}
        conflict={(to) => {
          const { from } = latest();
          return from && to < from ? t('beforeFrom', { day: day(from) }) : null;
        }}
        onCommit={(to) => update({ to }, 'push')}
      />
      <ZoneField value={state.tz} onCommit={(tz) => update({ tz }, 'push')} />
    </fieldset>
  );
}
