'use client';

import { useEffect, useState } from 'react';
import type { ExplorerState } from '@/lib/explorer/url-state';

/**
 * The Search box's text: the table filters on it as it is typed; the URL (to share, back/forward) follows
 * after a short pause so history does not get an entry per keystroke. A URL change from elsewhere (back,
 * "Clear filters") replaces the text.
 */
export function useSearchText(urlQ: string, update: (patch: Partial<ExplorerState>) => void) {
  const [text, setText] = useState(urlQ);
  const [seenQ, setSeenQ] = useState(urlQ);
  if (urlQ !== seenQ) {
    setSeenQ(urlQ);
    setText(urlQ);
  }
  useEffect(() => {
    if (text === urlQ) return;
    const timer = setTimeout(() => update({ q: text }), 300);
    return () => clearTimeout(timer);
  }, [text, urlQ, update]);
  return [text, setText] as const;
}
