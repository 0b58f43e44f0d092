'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo } from 'react';
import { explicitQuery, readState, writeState, type ExplorerState } from '@/lib/explorer/url-state';
import { pageOrg } from '@/lib/org-param';

/**
 * The explorer's state is the URL. Changes go through the History API (Next keeps useSearchParams in step
 * without a server round trip); `push` for range changes so back/forward step through them.
 */
export function useExplorerState() {
  const params = useSearchParams();
  const parsed = useMemo(() => readState(new URLSearchParams(params.toString())), [params]);
  // The URL says which days it shows and in which zone: a link without its range (an older one) gets it written
  // in, one without a zone (or with the old `local`) the viewer's, in place (replace: no extra history entry).
  // Nothing else changes, so a broken date stays there to be explained.
  const { from, to, tz } = parsed.state;
  useEffect(() => {
    const query = explicitQuery(new URLSearchParams(window.location.search), { from, to, tz });
    if (query !== null) window.history.replaceState(null, '', `${window.location.pathname}?${query}`);
  }, [from, to, tz, params]);
  const update = useCallback((patch: Partial<ExplorerState>, mode: 'push' | 'replace' = 'replace') => {
    // Read the address bar itself, not this render's copy: two quick changes must not undo each other.
    const current = readState(new URLSearchParams(window.location.search)).state;
    // The organisation the page is for stays: it is no part of the view, but the page's data is its.
    const next = [pageOrg() && `org=${encodeURIComponent(pageOrg()!)}`, writeState({ ...current, ...patch })]
      .filter(Boolean)
      .join('&');
    const url = `${window.location.pathname}${next ? `?${next}` : ''}`;
    if (mode === 'push') window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  }, []);
  return { ...parsed, update };
}
