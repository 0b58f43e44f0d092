'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import type { Batch } from '@/lib/batch-api/schemas';
import { toRow, type Row } from '@/lib/explorer/rows';

export type BatchPageResponse = { data: Batch[]; nextCursor: string | null };

/** A failed call to our API, with what the page needs to explain it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfterS: number | null,
  ) {
    super(detail);
  }

  /** When it failed: a retry countdown runs from here. */
  readonly at = Date.now();
}

/** Each page is parsed into rows once, however many times the list re-renders. */
const rowsOfPage = new WeakMap<BatchPageResponse, Row[]>();

async function fetchPage(range: { start_date?: string; end_date?: string }, cursor: string | null, signal: AbortSignal) {
  const params = new URLSearchParams();
  if (range.start_date) params.set('start_date', range.start_date);
  if (range.end_date) params.set('end_date', range.end_date);
  if (cursor) params.set('cursor', cursor);
  let response: Response;
  try {
    response = await fetch(`/api/batches?${params}`, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiFailure(0, 'The dashboard server could not be reached.', null);
  }
  if (response.ok) return (await response.json()) as BatchPageResponse;
  const body = (await response.json().catch(() => ({}))) as { detail?: string };
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new ApiFailure(response.status, body.detail ?? `Error ${response.status}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

/**
 * Every page of the range, one after the other; rows show as soon as the first page arrives. A failure keeps
 * the pages already loaded and `resume` continues from the cursor where it stopped. The server retries the
 * service; the browser does not retry on its own (one layer of retries).
 */
export function useAllBatches(range: { start_date?: string; end_date?: string }, enabled: boolean) {
  const query = useInfiniteQuery({
    queryKey: ['batches', range.start_date ?? null, range.end_date ?? null],
    queryFn: ({ pageParam, signal }) => fetchPage(range, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
  const { hasNextPage, isFetching, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetching && !isError) void fetchNextPage();
  }, [hasNextPage, isFetching, isError, fetchNextPage]);

  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const page of query.data?.pages ?? []) {
      let pageRows = rowsOfPage.get(page);
      if (!pageRows) rowsOfPage.set(page, (pageRows = page.data.map(toRow)));
      for (const r of pageRows) out.push(r);
    }
    return out;
  }, [query.data]);

  const complete = query.isSuccess && !query.hasNextPage;
  const hasPages = (query.data?.pages.length ?? 0) > 0;
  const { refetch } = query;
  // Stable, and a no-op while a fetch runs: a second call would cancel the first (fetchNextPage's default).
  const resume = useCallback(() => {
    if (isFetching) return;
    void (hasPages ? fetchNextPage() : refetch());
  }, [isFetching, hasPages, fetchNextPage, refetch]);
  return { rows, complete, error: query.error as ApiFailure | Error | null, loading: query.isPending && enabled, resume };
}
