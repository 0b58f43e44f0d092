'use client';

import { useMemo } from 'react';
import { useTranslations } from 'use-intl';
import { dialectFor } from '@/lib/export/dialect';
import { exportName, incompleteNote } from '@/lib/explorer/export-csv';
import { groupRows, groupsToCsv, nextGroupDir, sortGroups, type Group } from '@/lib/explorer/group';
import type { Formats } from '@/lib/i18n/formats';
import type { ExplorerState, Grouping, GroupSortField } from '@/lib/explorer/url-state';
import type { AnalysisInput } from './analysis';
import { useReader } from '../../i18n/use-formats';
import { downloadText } from '../export/download';
import { IncompleteNote } from '../range/incomplete-note';
import { useSpeech } from '../shared/use-speech';
import styles from './grouped-summary.module.css';

type Props = {
  input: AnalysisInput;
  grouping: Grouping;
  /** Sorting replaces the URL's entry (as the batch table's does); drilling down pushes one (input.drill). */
  update: (patch: Partial<ExplorerState>) => void;
  /** The batch export's file name, which this table's export extends with its grouping. */
  fileName: string;
};

const share = (v: number | null) => (v === null ? null : v * 100);
/** The figures' columns; each one's header is `analysis.grouped.<field>`. */
const COLUMNS: { field: Exclude<GroupSortField, 'key'>; value: (g: Group, f: Formats) => string }[] = [
  { field: 'count', value: (g, f) => f.count(g.count) },
  { field: 'germination', value: (g, f) => f.percent(g.germination) },
  { field: 'usable', value: (g, f) => f.percent(g.usable) },
  { field: 'cv', value: (g, f) => f.percent(g.cv) },
  { field: 'below', value: (g, f) => f.count(g.below) },
  { field: 'belowShare', value: (g, f) => f.percent(share(g.belowShare)) },
  { field: 'warningShare', value: (g, f) => f.percent(share(g.warningShare)) },
];

/** The first column's header per grouping, in `analysis.grouped`. */
const KEY_HEADER = {
  crop: 'crop',
  week: 'week',
  month: 'month',
  scanner: 'scanner',
  'crop-week': 'cropWeek',
} as const satisfies Record<Grouping, string>;

/**
 * The batches the table shows, by crop, week, month, scanner or crop and week: one row per group with the
 * summary cards' figures for its batches. A group's name drills down to exactly its batches (back undoes it).
 */
export function GroupedSummary({ input, grouping, update, fileName }: Props) {
  const { rows, zone, targets, completeness, drill } = input;
  const reader = useReader();
  const { gsort, gdir } = input.view;
  const say = useSpeech();
  const { f } = say;
  const t = useTranslations('analysis.grouped');
  const groups = useMemo(() => groupRows(rows, grouping, zone, targets, say), [rows, grouping, zone, targets, say]);
  const sorted = useMemo(() => sortGroups(groups, gsort, gdir), [groups, gsort, gdir]);
  const sortBy = (field: GroupSortField) => update({ gsort: field, gdir: nextGroupDir(field, gsort, gdir) });
  const ariaSort = (field: GroupSortField) =>
    field === gsort ? (gdir === 'asc' ? 'ascending' : 'descending') : undefined;
  const arrow = (field: GroupSortField) => (field === gsort ? (gdir === 'asc' ? '\u00a0▲' : '\u00a0▼') : '');

  const exportCsv = () => {
    const name = fileName.replace(/\.csv$/, `-by-${grouping}.csv`);
    const complete = completeness.missing.length === 0 && !completeness.stopped;
    const view = { complete, loaded: rows.length, missing: completeness.missing, zone, asOf: completeness.asOf };
    const text = groupsToCsv(sorted, grouping, dialectFor(reader.locale), incompleteNote(view));
    downloadText(exportName(name, view), text, 'text/csv;charset=utf-8');
  };

  return (
    // Not a region of its own: tests and assistive tech find the Summary region by name, and one called
    // "Grouped summary" would match it too; the table carries the name.
    <div className={styles.box}>
      <div className={styles.head}>
        <h2 id="grouped-summary-title" className={styles.title}>
          {t('title')}
        </h2>
        <button type="button" className="button" onClick={exportCsv} disabled={sorted.length === 0}>
          {t('export')}
        </button>
      </div>
      <IncompleteNote of={completeness} zone={zone} what="The grouped summary" />
      <div className={styles.scroll} role="region" aria-label={t('groups')} tabIndex={0}>
        <table className={styles.table} aria-labelledby="grouped-summary-title">
          <thead>
            <tr>
              <th scope="col" aria-sort={ariaSort('key')}>
                <button type="button" className={styles.sort} onClick={() => sortBy('key')}>
                  {t(KEY_HEADER[grouping])}
                  <span aria-hidden="true">{arrow('key')}</span>
                </button>
              </th>
              {COLUMNS.map((c) => (
                <th key={c.field} scope="col" className={styles.num} aria-sort={ariaSort(c.field)}>
                  <button type="button" className={styles.sort} onClick={() => sortBy(c.field)}>
                    {t(c.field)}
                    <span aria-hidden="true">{arrow(c.field)}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sorted.map((g) => (
              <tr key={g.key}>
                <th scope="row">
                  <button
                    type="button"
                    className={styles.drill}
                    title={t('showOnly', { count: f.count(g.count) })}
                    onClick={() => drill(g.drill)}
                  >
                    {g.label}
                  </button>
                </th>
                {COLUMNS.map((c) => (
                  <td key={c.field} className={styles.num}>
                    {c.value(g, f)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
