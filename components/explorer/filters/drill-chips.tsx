'use client';

import { useTranslations } from 'use-intl';
import { drillChips, formatBins, parseBins } from '@/lib/explorer/drill';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { useSpeech } from '../shared/use-speech';
import styles from '../view/explorer.module.css';

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
  const t = useTranslations('analysis.chips');
  const chips = drillChips(state, useSpeech());
  if (chips.length === 0) return null;
  return (
    <ul className={styles.chips} aria-label={t('label')}>
      {chips.map((c) => (
        <li key={c.key} className={styles.chip}>
          <span>{c.label}</span>
          <button
            type="button"
            aria-label={t('removeChip', { chip: c.label })}
            title={t('remove')}
            onClick={() => update(without(state, c.key), 'push')}
          >
            ×
          </button>
        </li>
      ))}
      {chips.length > 1 && (
        <li>
          <button
            type="button"
            className="button"
            onClick={() => update({ crop: undefined, days: undefined, scanner: undefined, bins: undefined }, 'push')}
          >
            {t('removeAll')}
          </button>
        </li>
      )}
    </ul>
  );
}
