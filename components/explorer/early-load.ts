'use client';

import { BatchLoad, type Range } from '@/lib/explorer/batch-load';
import { rangeToQuery } from '@/lib/explorer/date-range';
import { readState } from '@/lib/explorer/url-state';

let early: BatchLoad | null = null;

const sameRange = (a: Range, b: Range) => a.start_date === b.start_date && a.end_date === b.end_date;

/**
 * Starts loading the range in the address bar as soon as the page's first script runs, instead of after
 * hydration and the explorer's own chunk (about half a second sooner on a fast machine, more on a slow one).
 */
export function startEarlyLoad() {
  if (early || window.location.pathname !== '/batches') return;
  const { state, dateError } = readState(new URLSearchParams(window.location.search));
  if (dateError) return;
  early = new BatchLoad(rangeToQuery(state.from, state.to, state.tz));
  early.start();
}

/** The early load, if it is for this range; handed out once. */
export function takeEarlyLoad(range: Range): BatchLoad | null {
  if (!early || !sameRange(early.range, range)) return null;
  const load = early;
  early = null;
  return load;
}
