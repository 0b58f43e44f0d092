'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo } from 'react';
import { queryString, readState, writeState, type ExplorerState } from '@/lib/explorer/url-state';
import { pageOrg } from '@/lib/org-param';

/**
 * The explorer's state is the URL. Changes go through the History API (Next keeps useSearchParams in step
 * without a server round trip); `push` for range changes so back/forward step through them.
 */
export function useExplorerState() {
  const params = useSearchParams();
  const parsed = useMemo(() => readState(new URLSearchParams(params.toString())), [params]);
  // The URL names the zone its days are read in: a link without one (or with the old `local`) gets the viewer's,
  // in place (replace: no extra history entry); only tz changes, so a broken date stays there to be explained.
  const tz = parsed.state.tz;
  useEffect(() => {
    const here = new URLSearchParams(window.location.search);
    if (here.get('tz') === tz) return;
    here.set('tz', tz);
    window.history.replaceState(null, '', `${window.location.pathname}?${queryString(here)}`);
  }, [tz, params]);
  const update = useCallback(
    (patch: Partial<ExplorerState>, mode: 'push' | 'replace' = 'replace') => {
      // Read the address bar itself, not this render's copy: two quick changes must not undo each other.
      const current = readState(new URLSearchParams(window.location.search)).state;
      // The organisation the page is for stays: it is no part of the view, but the page's data is its.
      const next = [pageOrg() && `org=${encodeURIComponent(pageOrg()!)}`, writeState({ ...current, ...patch })].filter(Boolean).join('&');
      const url = `${window.location.pathname}${next ? `?${next}` : ''}`;
      if (mode === 'push') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
    },
    [],
  );
  return { ...parsed, update };
}
