/*
 * A loaded batch as the explorer's code handles it, and the few facts about rows that the filters, the charts
 * and the drill-downs all need; no import of theirs, so each may import it.
 */
import type { StoredRow } from './row-store';

/**
 * A loaded batch: a handle on its row of a columnar RowStore (row-store.ts says why), with the numbers parsed once.
 * Loops read its getters (`time`, `germination`, `crop`, `id`, `field(...)`); `batch` makes a plain Batch object
 * on every read, for whole-batch uses only (the detail dialog, files, tests).
 */
export type Row = StoredRow;

/** The key of batches with no crop recorded: in crop lists, the `crop` filter and chart series. */
export const NO_CROP = '(none)';
/** The crop a key stands for (null: none recorded). */
export const cropOfKey = (key: string): string | null => (key === NO_CROP ? null : key);

/** Mean tray size of the rows that know it: the weight of a batch whose tray size is unknown. */
export function meanCells(rows: readonly Row[]): number {
  let n = 0,
    sum = 0;
  for (const r of rows) {
    const cells = r.cells;
    if (cells !== null) {
      n++;
      sum += cells;
    }
  }
  return n ? sum / n : 1;
}
