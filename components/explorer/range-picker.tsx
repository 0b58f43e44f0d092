'use client';

import { matchingPreset, presetRange, PRESETS } from '@/lib/explorer/date-range';
import { readState, type ExplorerState } from '@/lib/explorer/url-state';
import { DayField } from './day-field';
import { ZoneField } from './zone-field';
import styles from './explorer.module.css';

type Props = { state: ExplorerState; update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void };

/** Presets, custom From/To calendar days, and the zone those days are read in. */
export function RangePicker({ state, update }: Props) {
  // The other end as the address bar has it now, not as this render saw it: it may have changed a moment ago.
  const latest = () => readState(new URLSearchParams(window.location.search)).state;
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
      <DayField
        label="From"
        value={state.from}
        conflict={(day) => {
          const { to } = latest();
          return to && day > to ? `After To (${to}): change To first.` : null;
        }}
        onCommit={(from) => update({ from }, 'push')}
      />
      <DayField
        label="To"
        value={state.to}
        conflict={(day) => {
          const { from } = latest();
          return from && day < from ? `Before From (${from}): change From first.` : null;
        }}
        onCommit={(to) => update({ to }, 'push')}
      />
      <ZoneField value={state.tz} onCommit={(tz) => update({ tz }, 'push')} />
    </fieldset>
  );
}
