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
  // The last text this hook wrote to the URL: when the URL catches up with it (Next's search params follow a
  // history change a moment later), that is no change from elsewhere, and what was typed since must stay.
  const [ownQ, setOwnQ] = useState<string | null>(null);
  if (urlQ !== seenQ) {
    setSeenQ(urlQ);
    if (urlQ !== ownQ) setText(urlQ);
  }
  useEffect(() => {
    if (text === urlQ) return;
    const timer = setTimeout(() => {
      setOwnQ(text);
      update({ q: text });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, urlQ, update]);
  return [text, setText] as const;
}
