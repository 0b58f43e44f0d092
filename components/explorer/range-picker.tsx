'use client';

import { matchingPreset, presetRange, PRESETS, type Zone } from '@/lib/explorer/date-range';
import type { ExplorerState } from '@/lib/explorer/url-state';
import styles from './explorer.module.css';

type Props = { state: ExplorerState; update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void };

/** Presets, custom From/To calendar days, and the zone those days are read in. */
export function RangePicker({ state, update }: Props) {
  const active = matchingPreset(state.from, state.to, state.tz);
  return (
    <fieldset className={styles.range}>
      <legend className="visually-hidden">Date range</legend>
      <div className={styles.presets} role="group" aria-label="Date range presets">
        {PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            className="button"
            aria-pressed={active === p.id}
            onClick={() => {
              const r = presetRange(p.id, state.tz);
              update({ from: r.from, to: r.to }, 'push');
            }}
          >
            {p.label}
          </button>
        ))}
      </div>
      <label>
        From <input type="date" value={state.from ?? ''} onChange={(e) => update({ from: e.target.value || undefined }, 'push')} />
      </label>
      <label>
        To <input type="date" value={state.to ?? ''} onChange={(e) => update({ to: e.target.value || undefined }, 'push')} />
      </label>
      <span>
        <label htmlFor="zone-select">Time zone</label>{' '}
        <select id="zone-select" value={state.tz} onChange={(e) => update({ tz: e.target.value as Zone }, 'push')}>
          <option value="local">Local ({Intl.DateTimeFormat().resolvedOptions().timeZone})</option>
          <option value="utc">UTC</option>
        </select>
      </span>
    </fieldset>
  );
}
