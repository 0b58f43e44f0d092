import type { Batch } from '../contract';
import { mergeInCreationOrder, rowMaker, type Row } from './rows';

/** Batches kept in the browser's cache, made into rows as the stream's are (one store per range, then creation order). */
export function rowsOf(batches: readonly Batch[]): Row[] {
  return mergeInCreationOrder([], batches.map(rowMaker([])));
}

/**
 * What the page shows while a range reopened from a copy is checked against the service: every batch the
 * check has returned so far (new ones, and changed ones in their new form), and the copy's other batches
 * until the check is over. Each batch once, in creation order; the count never drops while the check runs
 * (a batch of the copy gives way only to its own new form). Once the check is complete, its rows alone are
 * the range: the batches it did not return have vanished.
 */
export function mergeRefreshed(copy: readonly Row[], fresh: readonly Row[]): Row[] {
  const seen = new Set(fresh.map((r) => r.id));
  return mergeInCreationOrder(
    fresh,
    copy.filter((r) => !seen.has(r.id)),
  );
}
