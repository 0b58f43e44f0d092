'use client';

import { isServer, QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { DateRange } from '@/lib/contract';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import type { Row } from '@/lib/explorer/rows';
import { openRange, type ShownRange } from './range-reopen';

const FIVE_MINUTES = 5 * 60_000;

/**
 * React Query as it is meant to be used: one query per date range, whose data (RangeData) the loader streams
 * into with setQueryData as batches arrive, so the cache, staleness and refetching are the library's:
 *
 * - Going back to a range shown in the last five minutes is instant; two views of one range share it.
 * - An incomplete range is stale at once: leaving it cancels the load (the loader reads the query's signal)
 *   and keeps what arrived; coming back resumes it, asking only for what is missing.
 * - The server retries the service (one layer of retries): no query retries by itself, nor when a range that
 *   failed is shown again (it keeps its rows, so React Query's own retryOnMount would not hold it back: the
 *   refetchOnMount rule does). `retry()` is the person's Retry, and continues from the rows already here.
 * - 100,000 rows are never deep-compared (no structural sharing).
 * - A complete range gone stale, or one found in the browser's cache after a reload (range-reopen.ts), shows
 *   its copy "as of" its time at once and is stale until the service has confirmed it: the check runs in the
 *   background and merges what changed, and a check that failed is tried again when the range is shown again.
 * - Unlike the loader this replaced, leaving a range cancels its load at once (no grace period): in
 *   development, React's strict mode mounts twice and so resumes the load once, which costs one request.
 */
export function rangeQueryOptions(range: DateRange) {
  return queryOptions<ShownRange, ApiFailure>({
    queryKey: ['batches', range.start_date ?? null, range.end_date ?? null],
    queryFn: ({ client, queryKey, signal }) =>
      // An incomplete range resumes; a complete one that went stale loads again from the start beside its copy.
      openRange(range, JSON.stringify(queryKey), client.getQueryData<ShownRange>(queryKey), {
        signal,
        publish: (data) => client.setQueryData(queryKey, data),
      }),
    staleTime: (query) => (query.state.data?.complete && query.state.data.asOf === undefined ? FIVE_MINUTES : 0),
    gcTime: FIVE_MINUTES,
    retry: false,
    retryOnMount: false,
    refetchOnMount: (query) => query.state.status !== 'error',
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    structuralSharing: false,
  });
}

let browserClient: QueryClient | undefined;

/** One QueryClient in the browser (the early load and the explorer share it), a new one per server render. */
export function getQueryClient(): QueryClient {
  if (isServer) return new QueryClient();
  return (browserClient ??= new QueryClient());
}

const NO_ROWS: readonly Row[] = [];

/**
 * No range at all (a comparison with nothing to compare): a query of its own that never runs. Not `{}`, which
 * is All time's key: an idle observer there would keep All time's load running after the page left it.
 */
const NO_RANGE = { ...rangeQueryOptions({}), queryKey: ['batches', 'no range', null] };

/** Every batch of the range as it streams in, and the person's Retry; `null`: none (nothing loads). */
export function useRangeRows(range: DateRange | null, enabled: boolean) {
  const query = useQuery(range ? { ...rangeQueryOptions(range), enabled } : { ...NO_RANGE, enabled: false });
  const rows = query.data?.rows ?? NO_ROWS;
  const complete = query.data?.complete ?? false;
  const { refetch } = query;
  const retry = useCallback(() => void refetch(), [refetch]);
  return {
    rows,
    complete,
    /** The parts not loaded yet as the server last named them (lib/explorer/batch-load.ts); null: all of it. */
    pending: query.data?.pending ?? null,
    /** The rows are a copy of this time not yet confirmed by the service (undefined: they are the service's). */
    asOf: query.data?.asOf,
    /** Checking that copy failed (the rows stay, as of `asOf`). */
    refreshFailed: query.data?.refreshFailed ?? null,
    /** The copy is being checked right now. */
    refreshing: query.data?.asOf !== undefined && query.isFetching,
    /** Nothing has arrived yet (and nothing went wrong): the skeleton. */
    loading: enabled && !query.error && !complete && rows.length === 0,
    error: query.error,
    // One function for the life of the page: it sits in memoised props (the charts' Incomplete note), and a new
    // one per render redrew every chart on every keystroke.
    retry,
  };
}
