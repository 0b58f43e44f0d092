'use client';

import { useCallback, useMemo, useRef } from 'react';
import type { Row } from '@/lib/explorer/rows';
import type { ExplorerState } from '@/lib/explorer/url-state';

type Update = (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;

/**
 * The batch whose detail is open lives in the URL (`batch=<id>`), so the dialog has a link of its own.
 * Opening from the table pushes a history entry (Back closes the dialog, as it would leave a page); stepping
 * with Previous/Next replaces it (one Back still returns to the table, not through every batch looked at);
 * closing goes back to the entry opening pushed, or, for a dialog opened by a link, removes the parameter.
 */
export function useOpenBatch(batchId: string | undefined, rows: readonly Row[], complete: boolean, update: Update) {
  const row = useMemo(() => (batchId === undefined ? null : (rows.find((r) => r.batch.batch_id === batchId) ?? null)), [rows, batchId]);
  // Said only once the range has loaded completely: until then the batch may still be on its way.
  const missing = batchId !== undefined && row === null && complete ? batchId : null;
  const pushed = useRef(false);

  const open = useCallback(
    (r: Row) => {
      pushed.current = true;
      update({ batch: r.batch.batch_id }, 'push');
    },
    [update],
  );
  const show = useCallback((r: Row) => update({ batch: r.batch.batch_id }), [update]);
  const close = useCallback(() => {
    // Already gone from the URL (Back was pressed): the dialog is merely catching up.
    if (!new URLSearchParams(window.location.search).has('batch')) return;
    if (pushed.current) {
      pushed.current = false;
      window.history.back();
    } else update({ batch: undefined });
  }, [update]);

  return { row, missing, open, show, close };
}
