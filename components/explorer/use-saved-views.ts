'use client';

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedView, ViewChange } from '@/lib/contract/views';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { changeView, createView, deleteView, fetchViews } from '@/lib/explorer/views-api';

const KEY = ['settings', 'views'] as const;

export function savedViewsQueryOptions() {
  return queryOptions<SavedView[], ApiFailure>({
    queryKey: KEY,
    queryFn: ({ signal }) => fetchViews(signal),
    // Colleagues add views too: look again when the list is opened after a while, not more often.
    staleTime: 15_000,
    retry: false,
  });
}

/**
 * The organisation's saved views (loaded when `enabled`: the list is open) and the changes to them; after
 * each change, successful or not, the list is read again, since a colleague may have changed it meanwhile.
 */
export function useSavedViews(enabled: boolean) {
  const client = useQueryClient();
  const list = useQuery({ ...savedViewsQueryOptions(), enabled });
  const settled = () => client.invalidateQueries({ queryKey: KEY });
  const create = useMutation<SavedView, ApiFailure, { name: string; query: string }>({
    mutationFn: ({ name, query }) => createView(name, query),
    onSettled: settled,
  });
  const change = useMutation<SavedView, ApiFailure, { id: string } & ViewChange>({
    mutationFn: ({ id, ...rest }) => changeView(id, rest),
    onSettled: settled,
  });
  const remove = useMutation<void, ApiFailure, string>({ mutationFn: deleteView, onSettled: settled });
  return { list, create, change, remove };
}

/** A refusal's sentence without the field it names (`name: a view named …`), for a message beside that field. */
export const withoutField = (detail: string) => detail.replace(/^(name|query|id|views): /, '');
