'use client';

import { drillChips } from '@/lib/explorer/drill';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { parseBins, formatBins } from '@/lib/explorer/drill';
import styles from './explorer.module.css';

type Props = { state: ExplorerState; update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void };

/** What a chip's removal takes out of the URL. */
function without(state: ExplorerState, key: string): Partial<ExplorerState> {
  if (key === 'crop') return { crop: undefined };
  if (key === 'days') return { days: undefined };
  if (key === 'scanner') return { scanner: undefined };
  const metric = key.slice('bin:'.length);
  return { bins: formatBins(parseBins(state.bins).filter((b) => b.metric !== metric)) };
}

/**
 * The drill-downs in force, one removable chip each (a push: back brings the chip back). Screen readers hear
 * each chip's button as "Remove <chip>".
 */
export function DrillChips({ state, update }: Props) {
  const chips = drillChips(state);
  if (chips.length === 0) return null;
  return (
    <ul className={styles.chips} aria-label="Drill-downs">
      {chips.map((c) => (
        <li key={c.key} className={styles.chip}>
          <span>{c.label}</span>
          <button type="button" aria-label={`Remove ${c.label}`} title="Remove" onClick={() => update(without(state, c.key), 'push')}>
            ×
          </button>
        </li>
      ))}
      {chips.length > 1 && (
        <li>
          <button type="button" className="button" onClick={() => update({ crop: undefined, days: undefined, scanner: undefined, bins: undefined }, 'push')}>
            Remove all
          </button>
        </li>
      )}
    </ul>
  );
}
