'use client';

import { cropLabel } from '@/lib/explorer/rows';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { ColumnsMenu } from './columns-menu';
import { ExportMenu } from './export-menu';
import type { ExportFormat } from './exports';
import styles from './explorer.module.css';

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

/** Search, crop, toggles, the targets panel's button, columns and export. */
export function FiltersBar({ state, search, onSearch, crops, hidden, update, onExport, canExport, targetsOpen, targetsUnsaved, onTargets }: Props) {
  return (
    <div className={styles.filters}>
      <label className={styles.search}>
        Search
        <input type="search" value={search} placeholder="Name, crop, comment, e-mail" onChange={(e) => onSearch(e.target.value)} />
      </label>
      <span>
        <label htmlFor="crop-filter">Crop</label>{' '}
        <select id="crop-filter" value={state.crop ?? ''} onChange={(e) => update({ crop: e.target.value || undefined })}>
          <option value="">All crops</option>
          {crops.map((c) => (
            <option key={c} value={c}>
              {cropLabel(c)}
            </option>
          ))}
        </select>
      </span>
      <label className={styles.check}>
        <input type="checkbox" checked={!!state.warn} onChange={(e) => update({ warn: e.target.checked ? '1' : undefined })} /> Warnings only
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={!!state.below} onChange={(e) => update({ below: e.target.checked ? '1' : undefined })} /> Below target
      </label>
      <button type="button" className="button" aria-expanded={targetsOpen} aria-controls="targets-panel" onClick={onTargets}>
        Targets
      </button>
      {targetsUnsaved && <span className={styles.badge}>Unsaved targets in use</span>}
      <ColumnsMenu hidden={hidden} update={update} />
      <ExportMenu disabled={!canExport} onExport={onExport} />
    </div>
  );
}
