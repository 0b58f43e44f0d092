'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import { ExplorerView } from './explorer-view';
import { getQueryClient } from '../range/range-query';

/**
 * The explorer with the browser's one QueryClient, the one the early load already started its query in;
 * `organisation` names whose batches they are (the printed report says so), `defaultView` the organisation's
 * default view when this page load opened it.
 */
export function BatchExplorer({
  organisation,
  defaultView = null,
}: {
  organisation: string;
  defaultView?: string | null;
}) {
  return (
    <QueryClientProvider client={getQueryClient()}>
      <ExplorerView organisation={organisation} defaultView={defaultView} />
    </QueryClientProvider>
  );
}
