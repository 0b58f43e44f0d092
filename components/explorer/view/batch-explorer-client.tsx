'use client';

import dynamic from 'next/dynamic';
import { useTranslations } from 'use-intl';
import { startEarlyLoad } from './early-load';

/** One import site for the explorer's code: two would make the bundler build two chunk groups, and shared chunks twice. */
const loadExplorer = () => import('./batch-explorer').then((m) => m.BatchExplorer);

// Before hydration: ask for the batches and the explorer's code at once, side by side.
if (typeof window !== 'undefined') {
  startEarlyLoad();
  void loadExplorer();
}

/**
 * The explorer renders in the browser only: its days and "today" are the browser's zone, and it has no data
 * before the first page arrives, so server-rendering it would only produce a hydration mismatch.
 */
export const BatchExplorerClient = dynamic(loadExplorer, {
  ssr: false,
  loading: () => <LoadingExplorer />,
});

function LoadingExplorer() {
  return <p>{useTranslations('common')('loadingExplorer')}</p>;
}
