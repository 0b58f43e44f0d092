'use client';

import { useMemo } from 'react';
import { dialectFor } from '@/lib/export/dialect';
import { exportName, incompleteNote } from '@/lib/explorer/export-csv';
import { groupHeader, groupRows, groupsToCsv, nextGroupDir, sortGroups, type Group } from '@/lib/explorer/group';
import type { ExplorerState, Grouping, GroupSortField } from '@/lib/explorer/url-state';
import type { AnalysisInput } from './analysis';
import { useReader } from '../i18n/use-formats';
import { downloadText } from './download';
import { fmtCount, fmtPercent } from './format';
import { IncompleteNote } from './incomplete-note';
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
const COLUMNS: { field: GroupSortField; label: string; value: (g: Group) => string }[] = [
  { field: 'count', label: 'Batches', value: (g) => fmtCount(g.count) },
  { field: 'germination', label: 'Germination (weighted)', value: (g) => fmtPercent(g.germination) },
  { field: 'usable', label: 'Usable (weighted)', value: (g) => fmtPercent(g.usable) },
  { field: 'cv', label: 'Median CV', value: (g) => fmtPercent(g.cv) },
  { field: 'below', label: 'Below target', value: (g) => fmtCount(g.below) },
  { field: 'belowShare', label: 'Below target (share)', value: (g) => fmtPercent(share(g.belowShare)) },
  { field: 'warningShare', label: 'With warnings', value: (g) => fmtPercent(share(g.warningShare)) },
];

/**
 * The batches the table shows, by crop, week, month, scanner or crop and week: one row per group with the
 * summary cards' figures for its batches. A group's name drills down to exactly its batches (back undoes it).
 */
export function GroupedSummary({ input, grouping, update, fileName }: Props) {
  const { rows, zone, targets, completeness, drill } = input;
  const reader = useReader();
  const { gsort, gdir } = input.view;
  const groups = useMemo(() => groupRows(rows, grouping, zone, targets), [rows, grouping, zone, targets]);
  const sorted = useMemo(() => sortGroups(groups, gsort, gdir), [groups, gsort, gdir]);
  const sortBy = (field: GroupSortField) => update({ gsort: field, gdir: nextGroupDir(field, gsort, gdir) });
  const ariaSort = (field: GroupSortField) => (field === gsort ? (gdir === 'asc' ? 'ascending' : 'descending') : undefined);
  const arrow = (field: GroupSortField) => (field === gsort ? (gdir === 'asc' ? '\u00a0▲' : '\u00a0▼') : '');

  const exportCsv = () => {
    const name = fileName.replace(/\.csv$/, `-by-${grouping}.csv`);
    const complete = completeness.missing.length === 0 && !completeness.stopped;
    const view = { complete, loaded: rows.length, missing: completeness.missing, zone };
    const text = groupsToCsv(sorted, grouping, dialectFor(reader.locale), incompleteNote(view));
    downloadText(exportName(name, view), text, 'text/csv;charset=utf-8');
  };

  return (
    // Not a region of its own: tests and assistive tech find the Summary region by name, and one called
    // "Grouped summary" would match it too; the table carries the name.
    <div className={styles.box}>
      <div className={styles.head}>
        <h2 id="grouped-summary-title" className={styles.title}>
          Grouped summary
        </h2>
        <button type="button" className="button" onClick={exportCsv} disabled={sorted.length === 0}>
          Export grouped CSV
        </button>
      </div>
      <IncompleteNote of={completeness} zone={zone} what="The grouped summary" />
      <div className={styles.scroll} role="region" aria-label="Groups" tabIndex={0}>
        <table className={styles.table} aria-labelledby="grouped-summary-title">
          <thead>
            <tr>
              <th scope="col" aria-sort={ariaSort('key')}>
                <button type="button" className={styles.sort} onClick={() => sortBy('key')}>
                  {groupHeader(grouping)}
                  <span aria-hidden="true">{arrow('key')}</span>
                </button>
              </th>
              {COLUMNS.map((c) => (
                <th key={c.field} scope="col" className={styles.num} aria-sort={ariaSort(c.field)}>
                  <button type="button" className={styles.sort} onClick={() => sortBy(c.field)}>
                    {c.label}
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
                  <button type="button" className={styles.drill} title={`Show only these ${fmtCount(g.count)} batches`} onClick={() => drill(g.drill)}>
                    {g.label}
                  </button>
                </th>
                {COLUMNS.map((c) => (
                  <td key={c.field} className={styles.num}>
                    {c.value(g)}
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
