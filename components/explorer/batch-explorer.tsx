'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import { ExplorerView } from './explorer-view';
import { getQueryClient } from './range-query';

/** The explorer with the browser's one QueryClient, the one the early load already started its query in; `organisation` names whose batches they are (the printed report says so). */
export function BatchExplorer({ organisation }: { organisation: string }) {
  return (
    <QueryClientProvider client={getQueryClient()}>
      <ExplorerView organisation={organisation} />
    </QueryClientProvider>
  );
}
