'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** Longest Print report waits for the charts' code and drawings (then it prints what there is). */
const MOST_WAIT_MS = 10_000;

/** Resolves once no part of the page is marked as not drawn (PENDING) for three frames running. */
function drawn(): Promise<void> {
  return new Promise((resolve) => {
    const start = performance.now();
    let calm = 0;
    const check = () => {
      calm = document.querySelector('[data-print-pending]') ? 0 : calm + 1;
      if (calm >= 3 || performance.now() - start > MOST_WAIT_MS) resolve();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/**
 * Whether a report is being printed, and since when. **Print report** (`print`) mounts the report (every chart
 * drawn at print size, the print-only table), waits until it is drawn, then opens the browser's print. The
 * browser's own print (Ctrl+P, the menu) gets the same report: `beforeprint` (and the print media query, for
 * tools that switch media rather than print) renders it synchronously, before the browser lays out the pages;
 * `afterprint` takes it away again, so 2,000 table rows are in the page only while a print needs them.
 */
export function usePrintReport() {
  const [madeAt, setMadeAt] = useState<number | null>(null);
  const [preparing, setPreparing] = useState(false);
  const active = useRef(false);
  // What began the report: only a report the print media query began ends when that query no longer matches;
  // Print report's and the browser's print (beforeprint) end with afterprint, whatever the media does meanwhile.
  const byMedia = useRef(false);
  const begin = useCallback((sync: boolean, media = false) => {
    if (active.current) return;
    active.current = true;
    byMedia.current = media;
    const now = Date.now();
    if (sync) flushSync(() => setMadeAt(now));
    else setMadeAt(now);
  }, []);
  const end = useCallback(() => {
    active.current = false;
    setMadeAt(null);
  }, []);

  useEffect(() => {
    const before = () => begin(true);
    const media = window.matchMedia('print');
    const onMedia = (e: MediaQueryListEvent) => (e.matches ? begin(true, true) : byMedia.current && end());
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', end);
    media.addEventListener('change', onMedia);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', end);
      media.removeEventListener('change', onMedia);
    };
  }, [begin, end]);

  const print = useCallback(async () => {
    setPreparing(true);
    begin(false);
    try {
      await drawn();
    } finally {
      setPreparing(false);
    }
    window.print();
  }, [begin]);

  return { printing: madeAt !== null, madeAt, preparing, print };
}
