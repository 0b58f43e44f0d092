import type { Batch } from '../batch-api/schemas';
import type { ExplorerState, SortField } from './url-state';

/** A batch with the numbers parsed once, so filtering and sorting 100k rows stay cheap. */
export type Row = {
  batch: Batch;
  time: number;
  germination: number | null;
  usable: number | null;
  cells: number | null;
  haystack: string;
};

const num = (v: string | null) => (v === null ? null : Number(v));

export function toRow(batch: Batch): Row {
  return {
    batch,
    time: Date.parse(batch.batch_creation_date),
    germination: num(batch.avg_germination_rate),
    usable: num(batch.avg_usable_seedling_rate),
    cells: batch.total_cells_per_tray,
    haystack: [batch.batch_name, batch.crop_type, batch.comment, batch.scanned_by_email].filter(Boolean).join('\n').toLowerCase(),
  };
}

export type RowFilter = Pick<ExplorerState, 'q' | 'crop' | 'warn' | 'below' | 'target'>;

export function filterRows(rows: readonly Row[], f: RowFilter): Row[] {
  const needle = f.q.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!needle || r.haystack.includes(needle)) &&
      (f.crop === undefined || (f.crop === '(none)' ? r.batch.crop_type === null : r.batch.crop_type === f.crop)) &&
      (!f.warn || r.batch.warnings) &&
      (!f.below || (r.germination !== null && r.germination < f.target)),
  );
}

function sortValue(r: Row, field: SortField): number | string | null {
  switch (field) {
    case 'batch_creation_date':
      return r.time;
    case 'avg_germination_rate':
      return r.germination;
    case 'avg_usable_seedling_rate':
      return r.usable;
    case 'total_cells_per_tray':
      return r.cells;
    case 'warnings':
      return r.batch.warnings ? 1 : 0;
    case 'number_of_images':
      return r.batch.number_of_images;
    case 'batch_name':
    case 'crop_type':
      return r.batch[field]?.toLowerCase() ?? null;
    default:
      return num(r.batch[field]);
  }
}

/** Nulls last in both directions; ties keep creation order. */
export function sortRows(rows: readonly Row[], field: SortField, dir: 'asc' | 'desc'): Row[] {
  const sign = dir === 'asc' ? 1 : -1;
  const keyed = rows.map((r, i) => ({ r, i, v: sortValue(r, field) }));
  keyed.sort((a, b) => {
    if (a.v === b.v) return a.i - b.i;
    if (a.v === null) return 1;
    if (b.v === null) return -1;
    return (a.v < b.v ? -1 : 1) * sign;
  });
  return keyed.map((k) => k.r);
}

export type Summary = { count: number; germination: number | null; usable: number | null; warningShare: number | null };

/** Mean tray size of the rows that know it: the weight of a batch whose tray size is unknown. */
export function meanCells(rows: readonly Row[]): number {
  let n = 0, sum = 0;
  for (const r of rows) if (r.cells !== null) { n++; sum += r.cells; }
  return n ? sum / n : 1;
}

/**
 * Means weighted by cells per tray (a batch of 288 cells counts more than one of 72), not a mean of means.
 * A batch whose tray size is unknown weighs as much as the average known tray.
 */
export function summarize(rows: readonly Row[]): Summary {
  const fallback = meanCells(rows);
  let gw = 0, gs = 0, uw = 0, us = 0, warned = 0;
  for (const r of rows) {
    const w = r.cells ?? fallback;
    if (r.germination !== null) { gw += w; gs += w * r.germination; }
    if (r.usable !== null) { uw += w; us += w * r.usable; }
    if (r.batch.warnings) warned++;
  }
  return {
    count: rows.length,
    germination: gw ? gs / gw : null,
    usable: uw ? us / uw : null,
    warningShare: rows.length ? warned / rows.length : null,
  };
}

export function cropsOf(rows: readonly Row[]): string[] {
  const set = new Set<string>();
  let none = false;
  for (const r of rows) {
    if (r.batch.crop_type === null) none = true;
    else set.add(r.batch.crop_type);
  }
  return [...[...set].sort((a, b) => a.localeCompare(b)), ...(none ? ['(none)'] : [])];
}
