'use client';

import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { BatchLoad, type LoadSnapshot, type Range } from '@/lib/explorer/batch-load';
import { takeEarlyLoad } from './early-load';

const IDLE: LoadSnapshot = { rows: [], complete: false, loading: false, error: null };
const subscribeNothing = () => () => {};
const idle = () => IDLE;

/**
 * Every batch of the range, streaming in. react-query keeps one live load per range, so going back to a
 * range shown a moment ago is instant and two views of one range share it. The server retries the service;
 * the browser does not retry on its own (one layer of retries); `resume` is the person's retry.
 */
export function useBatchLoad(range: Range, enabled: boolean) {
  const { data: load } = useQuery({
    queryKey: ['batches', range.start_date ?? null, range.end_date ?? null],
    queryFn: () => takeEarlyLoad(range) ?? new BatchLoad(range),
    enabled,
    staleTime: 5 * 60_000,
    gcTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const snapshot = useSyncExternalStore(load?.subscribe ?? subscribeNothing, load?.getSnapshot ?? idle, idle);
  return { ...snapshot, loading: snapshot.loading || (enabled && !load), resume: load?.resume ?? (() => {}) };
}
