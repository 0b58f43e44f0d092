'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { readState, writeState, type ExplorerState } from '@/lib/explorer/url-state';

/**
 * The explorer's state is the URL. Changes go through the History API (Next keeps useSearchParams in step
 * without a server round trip); `push` for range changes so back/forward step through them.
 */
export function useExplorerState() {
  const params = useSearchParams();
  const parsed = useMemo(() => readState(new URLSearchParams(params.toString())), [params]);
  const update = useCallback(
    (patch: Partial<ExplorerState>, mode: 'push' | 'replace' = 'replace') => {
      // Read the address bar itself, not this render's copy: two quick changes must not undo each other.
      const current = readState(new URLSearchParams(window.location.search)).state;
      const next = writeState({ ...current, ...patch });
      const url = `${window.location.pathname}${next ? `?${next}` : ''}`;
      if (mode === 'push') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
    },
    [],
  );
  return { ...parsed, update };
}
