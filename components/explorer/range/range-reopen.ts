'use client';

import type { Batch, DateRange } from '@/lib/contract';
import { ApiFailure } from '@/lib/explorer/api-failure';
import { loadRange, type RangeData } from '@/lib/explorer/batch-load';
import { mergeRefreshed, rowsOf } from '@/lib/explorer/refresh';
import type { Row } from '@/lib/explorer/rows';
import { CACHE_MAX_BATCHES, hasRangeCache, readCachedRange, writeCachedRange } from './range-cache-browser';

/** A range as the page shows it: what the loader has, and whether it is (partly) an older copy being checked. */
export type ShownRange = RangeData & {
  /** The rows are (partly) a copy of this time that the service has not confirmed yet. */
  asOf?: number;
  /** The check of that copy failed: the rows stay, as of `asOf`. */
  refreshFailed?: ApiFailure;
  /** When the range last loaded completely from the service. */
  loadedAt?: number;
};

/**
 * The batches each range's current load has received, for the browser's cache: given up (null) past the
 * cache's limit, so a huge range is never held twice. A few ranges at most (one per load under way).
 */
const received = new Map<string, Batch[] | null>();
const MAX_GATHERING = 4;

function gather(key: string, resuming: boolean): (batches: Batch[]) => void {
  // A resumed load continues what its start gathered; one whose start was not gathered is not kept.
  const list = resuming ? (received.get(key) ?? null) : [];
  received.delete(key);
  received.set(key, list);
  while (received.size > MAX_GATHERING) received.delete(received.keys().next().value!);
  return (batches) => {
    const mine = received.get(key);
    if (!mine) return;
    if (mine.length + batches.length > CACHE_MAX_BATCHES) received.set(key, null);
    else for (const b of batches) mine.push(b);
  };
}

type Options = { signal: AbortSignal; publish: (data: ShownRange) => void };

/**
 * Loads `range`, reopening it from a copy when there is one: the page's own (a complete range gone stale) or
 * the browser's cache (after a reload, in a new tab). The copy is shown at once, "as of" its time, while the
 * whole range loads again beside it (mergeRefreshed): no empty or partial table, no batch twice. A check that
 * fails leaves the copy's rows, saying they are as of then and that refreshing failed. A load with no copy
 * (or a resumed one) is the loader's alone; what completes is kept in the cache for the next time.
 */
export async function openRange(
  range: DateRange,
  key: string,
  here: ShownRange | undefined,
  { signal, publish }: Options,
): Promise<ShownRange> {
  const resuming = !!here && !here.complete;
  let copy: { rows: readonly Row[]; asOf: number } | null = here?.complete
    ? { rows: here.rows, asOf: here.asOf ?? here.loadedAt ?? Date.now() }
    : null;
  let fresh: RangeData | null = null;

  const shown = (): ShownRange | null => {
    if (!copy) return fresh;
    if (!fresh) return { rows: copy.rows, complete: true, remaining: null, pending: '', asOf: copy.asOf };
    if (fresh.complete) return fresh;
    return {
      rows: mergeRefreshed(copy.rows, fresh.rows),
      complete: true,
      remaining: null,
      pending: '',
      asOf: copy.asOf,
    };
  };
  const show = () => {
    const data = shown();
    if (data) publish(data);
  };

  // The browser's cache first, the stream after: on a hit, the check's parsing would only slow the copy down;
  // on a miss, the stream waits for the session's key and one look-up in IndexedDB (no entry is opened).
  if (!here && hasRangeCache) {
    const hit = await readCachedRange(key);
    if (signal.aborted) throw signal.reason;
    if (hit) copy = { rows: rowsOf(hit.batches), asOf: hit.savedAt };
    if (hit) performance.mark('range-cache:rows');
  }
  if (copy) show();

  const onBatches = gather(key, resuming);
  try {
    const whole = await loadRange(range, {
      from: resuming ? here : undefined,
      signal,
      publish: (data) => {
        fresh = data;
        show();
      },
      onBatches,
    });
    const loadedAt = Date.now();
    const batches = received.get(key);
    received.delete(key);
    if (batches) writeCachedRange(key, batches, loadedAt);
    const result: ShownRange = { ...whole, loadedAt };
    publish(result);
    return result;
  } catch (error) {
    if (!copy || signal.aborted || !(error instanceof ApiFailure)) throw error;
    const kept: ShownRange = { ...shown()!, refreshFailed: error };
    publish(kept);
    return kept;
  }
}
