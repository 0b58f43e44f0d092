'use client';

import dynamic from 'next/dynamic';

/**
 * The explorer renders in the browser only: its days and "today" are the browser's zone, and it has no data
 * before the first page arrives, so server-rendering it would only produce a hydration mismatch.
 */
export const BatchExplorerClient = dynamic(() => import('./batch-explorer').then((m) => m.BatchExplorer), {
  ssr: false,
  loading: () => <p>Loading the batch explorer…</p>,
});
