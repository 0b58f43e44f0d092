'use client';

import { useTranslations } from 'use-intl';
import { belowChoice, MISS_KINDS, type BelowFilter } from '@/lib/explorer/targets/misses';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { ColumnsMenu } from '../table/columns-menu';
import { ExportMenu } from '../export/export-menu';
import type { ExportFormat } from '../export/exports';
import { useCropLabel } from '../shared/use-explorer-words';
import styles from '../view/explorer.module.css';

type Props = {
  state: ExplorerState;
  search: string;
  onSearch: (text: string) => void;
  crops: string[];
  hidden: Set<string>;
  update: (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;
  onExport: (format: ExportFormat) => Promise<void>;
  canExport: boolean;
  targetsOpen: boolean;
  targetsUnsaved: boolean;
  onTargets: () => void;
};

/** The Below target filter's choices, as the URL writes them (`1`: any target). */
const BELOW_CHOICES: BelowFilter[] = ['1', ...MISS_KINDS];

/** Search, crop, toggles, the targets panel's button, columns and export. */
export function FiltersBar({
  state,
  search,
  onSearch,
  crops,
  hidden,
  update,
  onExport,
  canExport,
  targetsOpen,
  targetsUnsaved,
  onTargets,
}: Props) {
  const t = useTranslations('explorer.filters');
  const cropLabel = useCropLabel();
  return (
    <div className={styles.filters}>
      <label className={styles.search}>
        {t('search')}
        <input
          type="search"
          value={search}
          placeholder={t('searchPlaceholder')}
          onChange={(e) => onSearch(e.target.value)}
        />
      </label>
      <span>
        <label htmlFor="crop-filter">{t('crop')}</label>{' '}
        <select
          id="crop-filter"
          value={state.crop ?? ''}
          onChange={(e) => update({ crop: e.target.value || undefined })}
        >
          <option value="">{t('allCrops')}</option>
          {crops.map((c) => (
            <option key={c} value={c}>
              {cropLabel(c)}
            </option>
          ))}
        </select>
      </span>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={!!state.warn}
          onChange={(e) => update({ warn: e.target.checked ? '1' : undefined })}
        />{' '}
        {t('warningsOnly')}
      </label>
      <span className={styles.belowFilter}>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={!!state.below}
            onChange={(e) => update({ below: e.target.checked ? '1' : undefined })}
          />{' '}
          {t('belowTarget')}
        </label>
        {/* Which target, once the filter is on: any (`1`, what links have always said) or one kind. */}
        {state.below && (
          <select
            aria-label={t('belowKind')}
            value={state.below}
            onChange={(e) => update({ below: e.target.value as BelowFilter })}
          >
            {BELOW_CHOICES.map((value) => (
              <option key={value} value={value}>
                {t(`belowKinds.${belowChoice(value)}`)}
              </option>
            ))}
          </select>
        )}
      </span>
      <span className={styles.filterActions}>
        <button
          type="button"
          className="button"
          aria-expanded={targetsOpen}
          aria-controls="targets-panel"
          onClick={onTargets}
        >
          {t('targets')}
        </button>
        {targetsUnsaved && <span className={styles.badge}>{t('unsavedTargets')}</span>}
        <ColumnsMenu hidden={hidden} update={update} />
        <ExportMenu disabled={!canExport} onExport={onExport} />
      </span>
    </div>
  );
}
