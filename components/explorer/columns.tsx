import type { ReactNode } from 'react';
import { targetFor, type Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import { belowTarget, type Row } from '@/lib/explorer/rows';
import type { SortField } from '@/lib/explorer/url-state';
import { AnalysisLink } from './analysis-link';
import { DASH, fmtArea, fmtDate, fmtDecimal, fmtInt, fmtPercent, fmtText } from './format';
import styles from './explorer.module.css';

/**
 * What a cell needs besides its row: the zone dates are shown in, the targets each row is judged against,
 * how to open a batch, and whether the row holds the table's one Tab stop (its links are reachable by Tab
 * only then, so Tab leaves the table instead of walking every link of every row).
 */
export type CellContext = { zone: Zone; targets: Targets; onOpen: (row: Row) => void; tabbable: boolean };

export type Column = {
  id: string;
  label: string;
  sort?: SortField;
  numeric?: boolean;
  width: number;
  render: (row: Row, ctx: CellContext) => ReactNode;
  /** The cell's whole text when it may be cut (shown on hover; the focused row unfolds to show it). */
  full?: (row: Row) => string | null;
  /** The cell on paper, where `render` would put a control (the printed report's table). */
  print?: (row: Row) => ReactNode;
  /** Its share of a printed row (relative to the others shown): paper's 8 pt text is narrower than the screen's. */
  printWidth: number;
};

const germinationTarget = (r: Row, targets: Targets) => targetFor(targets, r.batch.crop_type, 'germination');

function Germination({ row, targets }: { row: Row; targets: Targets }) {
  const below = belowTarget(row, germinationTarget(row, targets));
  return (
    <>
      <span className={below ? styles.below : undefined}>{fmtPercent(row.germination)}</span>
      {below && <span className={styles.belowBadge}>Below target</span>}
    </>
  );
}

function Usable({ row, targets }: { row: Row; targets: Targets }) {
  const target = targetFor(targets, row.batch.crop_type, 'usable');
  const below = target !== null && row.usable !== null && row.usable < target;
  return (
    <>
      {below && (
        <span className={styles.belowMark} title={`Below the usable-seedling target of ${target} %`}>
          <span aria-hidden="true">▾</span>
          <span className="visually-hidden">Below the usable-seedling target: </span>
        </span>
      )}
      {fmtPercent(row.usable)}
    </>
  );
}

export const COLUMNS: Column[] = [
  { id: 'date', label: 'Created', sort: 'batch_creation_date', width: 170, printWidth: 9, render: (r, { zone }) => fmtDate(r.time, zone) },
  {
    id: 'name', label: 'Batch', sort: 'batch_name', width: 260, printWidth: 15, full: (r) => r.batch.batch_name, print: (r) => fmtText(r.batch.batch_name),
    render: (r, { onOpen }) => (
      // Not a Tab stop of its own: the row is (Enter opens it), so Tab does not stop twice on each batch.
      <button type="button" tabIndex={-1} className={styles.linkButton} onClick={() => onOpen(r)}>
        {r.batch.batch_name}
      </button>
    ),
  },
  { id: 'crop', label: 'Crop', sort: 'crop_type', width: 120, printWidth: 7, full: (r) => r.batch.crop_type, render: (r) => fmtText(r.batch.crop_type) },
  { id: 'germination', label: 'Germination', sort: 'avg_germination_rate', numeric: true, width: 175, printWidth: 9, render: (r, { targets }) => <Germination row={r} targets={targets} /> },
  { id: 'target', label: 'Target', sort: 'target', numeric: true, width: 80, printWidth: 6, render: (r, { targets }) => fmtPercent(germinationTarget(r, targets)) },
  { id: 'usable', label: 'Usable', sort: 'avg_usable_seedling_rate', numeric: true, width: 95, printWidth: 6, render: (r, { targets }) => <Usable row={r} targets={targets} /> },
  { id: 'cells', label: 'Cells/tray', sort: 'total_cells_per_tray', numeric: true, width: 105, printWidth: 6, render: (r) => fmtInt(r.cells) },
  { id: 'cv', label: 'Size CV', sort: 'avg_coefficient_of_variation', numeric: true, width: 90, printWidth: 6, render: (r) => fmtPercent(r.batch.avg_coefficient_of_variation) },
  { id: 'size', label: 'Median size', sort: 'avg_median_seedling_size_mm2', numeric: true, width: 120, printWidth: 7, render: (r) => fmtArea(r.batch.avg_median_seedling_size_mm2) },
  { id: 'images', label: 'Images', sort: 'number_of_images', numeric: true, width: 80, printWidth: 6, render: (r) => fmtInt(r.batch.number_of_images) },
  { id: 'warnings', label: 'Warnings', sort: 'warnings', width: 100, printWidth: 7, render: (r) => (r.batch.warnings ? <span className={styles.badge}>Warning</span> : DASH) },
  { id: 'germinated', label: 'Germinated/tray', numeric: true, width: 150, printWidth: 6, render: (r) => fmtDecimal(r.batch.avg_germinated_seedlings) },
  { id: 'scanner', label: 'Scanned by', width: 200, printWidth: 12, full: (r) => r.batch.scanned_by_email, render: (r) => fmtText(r.batch.scanned_by_email) },
  { id: 'analysis', label: 'Analysis', width: 130, printWidth: 7, render: (r, { tabbable }) => <AnalysisLink link={r.batch.analysis_link} tabbable={tabbable} /> },
  { id: 'comment', label: 'Comment', width: 240, printWidth: 13, full: (r) => r.batch.comment, render: (r) => fmtText(r.batch.comment) },
];
