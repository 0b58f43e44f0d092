import type { ReactNode } from 'react';
import { targetFor, type Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import { belowTarget, type Row } from '@/lib/explorer/rows';
import type { SortField } from '@/lib/explorer/url-state';
import { ENGLISH_WORDS, type ColumnId } from '@/lib/export/strings';
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
  id: ColumnId;
  /** The English name; the table shows the reader's language's (messages/<language>/export.json). */
  label: string;
  sort?: SortField;
  numeric?: boolean;
  width: number;
  render: (row: Row, ctx: CellContext) => ReactNode;
  /** The cell's whole text when it may be cut (shown on hover; the focused row unfolds to show it). */
  full?: (row: Row) => string | null;
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

/** The exports (lib/export/columns.ts) write these columns under the same names (the table and its menu show them in the reader's language: messages/<language>/export.json). */
const LABELS = ENGLISH_WORDS.columns;

export const COLUMNS: Column[] = [
  { id: 'date', label: LABELS.date, sort: 'batch_creation_date', width: 170, render: (r, { zone }) => fmtDate(r.time, zone) },
  {
    id: 'name', label: LABELS.name, sort: 'batch_name', width: 260, full: (r) => r.batch.batch_name,
    render: (r, { onOpen }) => (
      // Not a Tab stop of its own: the row is (Enter opens it), so Tab does not stop twice on each batch.
      <button type="button" tabIndex={-1} className={styles.linkButton} onClick={() => onOpen(r)}>
        {r.batch.batch_name}
      </button>
    ),
  },
  { id: 'crop', label: LABELS.crop, sort: 'crop_type', width: 120, full: (r) => r.batch.crop_type, render: (r) => fmtText(r.batch.crop_type) },
  { id: 'germination', label: LABELS.germination, sort: 'avg_germination_rate', numeric: true, width: 175, render: (r, { targets }) => <Germination row={r} targets={targets} /> },
  { id: 'target', label: LABELS.target, sort: 'target', numeric: true, width: 80, render: (r, { targets }) => fmtPercent(germinationTarget(r, targets)) },
  { id: 'usable', label: LABELS.usable, sort: 'avg_usable_seedling_rate', numeric: true, width: 95, render: (r, { targets }) => <Usable row={r} targets={targets} /> },
  { id: 'cells', label: LABELS.cells, sort: 'total_cells_per_tray', numeric: true, width: 105, render: (r) => fmtInt(r.cells) },
  { id: 'cv', label: LABELS.cv, sort: 'avg_coefficient_of_variation', numeric: true, width: 90, render: (r) => fmtPercent(r.batch.avg_coefficient_of_variation) },
  { id: 'size', label: LABELS.size, sort: 'avg_median_seedling_size_mm2', numeric: true, width: 120, render: (r) => fmtArea(r.batch.avg_median_seedling_size_mm2) },
  { id: 'images', label: LABELS.images, sort: 'number_of_images', numeric: true, width: 80, render: (r) => fmtInt(r.batch.number_of_images) },
  { id: 'warnings', label: LABELS.warnings, sort: 'warnings', width: 100, render: (r) => (r.batch.warnings ? <span className={styles.badge}>Warning</span> : DASH) },
  { id: 'germinated', label: LABELS.germinated, numeric: true, width: 150, render: (r) => fmtDecimal(r.batch.avg_germinated_seedlings) },
  { id: 'scanner', label: LABELS.scanner, width: 200, full: (r) => r.batch.scanned_by_email, render: (r) => fmtText(r.batch.scanned_by_email) },
  { id: 'analysis', label: LABELS.analysis, width: 130, render: (r, { tabbable }) => <AnalysisLink link={r.batch.analysis_link} tabbable={tabbable} /> },
  { id: 'comment', label: LABELS.comment, width: 240, full: (r) => r.batch.comment, render: (r) => fmtText(r.batch.comment) },
];
