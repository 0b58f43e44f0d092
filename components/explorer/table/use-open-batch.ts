'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Row } from '@/lib/explorer/rows';
import type { ExplorerState } from '@/lib/explorer/url-state';

type Update = (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;

/** How long stepping must pause before the URL follows (one history write per pause, not per key press). */
const URL_DELAY_MS = 250;

/**
 * The batch whose detail is open lives in the URL (`batch=<id>`), so the dialog has a link of its own.
 * Opening from the table pushes a history entry (Back closes the dialog, as it would leave a page); stepping
 * with Previous/Next replaces it (one Back still returns to the table, not through every batch looked at);
 * closing goes back to the entry opening pushed, or, for a dialog opened by a link, removes the parameter.
 * Steps show at once and reach the URL after a pause: the router commits each URL change a moment later,
 * so a key held down would otherwise step from a batch the address bar no longer shows.
 */
export function useOpenBatch(batchId: string | undefined, rows: readonly Row[], complete: boolean, update: Update) {
  const [stepped, setStepped] = useState<string | null>(null);
  const [seenUrl, setSeenUrl] = useState(batchId);
  if (batchId !== seenUrl) {
    // The URL moved (caught up with a step, or Back/Forward, or a link): it wins.
    setSeenUrl(batchId);
    setStepped(null);
  }
  const shownId = stepped ?? batchId;
  const row = useMemo(
    () => (shownId === undefined ? null : (rows.find((r) => r.id === shownId) ?? null)),
    [rows, shownId],
  );
  // Said only once the range has loaded completely: until then the batch may still be on its way.
  const missing = shownId !== undefined && row === null && complete ? shownId : null;
  const pushed = useRef(false);
  const pending = useRef<string | null>(null);

  useEffect(() => {
    if (stepped === null) return;
    pending.current = stepped;
    const timer = setTimeout(() => {
      if (pending.current === stepped) update({ batch: stepped });
    }, URL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [stepped, update]);

  const open = useCallback(
    (r: Row) => {
      pushed.current = true;
      update({ batch: r.id }, 'push');
    },
    [update],
  );
  const show = useCallback((r: Row) => setStepped(r.id), []);
  const close = useCallback(() => {
    pending.current = null;
    setStepped(null);
    // Already gone from the URL (Back was pressed): the dialog is merely catching up.
    if (!new URLSearchParams(window.location.search).has('batch')) return;
    if (pushed.current) {
      pushed.current = false;
      window.history.back();
    } else update({ batch: undefined });
  }, [update]);

  return { row, missing, open, show, close };
}
