'use client';

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { MAX_VIEWS, type SavedView, type ViewChange } from '@/lib/contract/views';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { changeView, createView, deleteView, fetchViews } from '@/lib/explorer/views-api';
import { useFailureText } from './use-failure-text';

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

/**
 * Why a change to the saved views failed, beside the field it concerns and in the reader's language where
 * the refusal is a known one (`name`: the name tried, for a name already taken); else the server's sentence.
 */
export function useViewProblem(): (error: ApiFailure, name?: string) => string {
  const t = useTranslations('explorer.views');
  const failureText = useFailureText();
  return useCallback(
    (error: ApiFailure, name?: string) => {
      if (error.status === 409 && error.detail.startsWith('name: ') && name !== undefined) return t('nameTaken', { name: name.trim() });
      if (error.status === 409 && error.detail.startsWith('views: ')) return t('tooMany', { max: String(MAX_VIEWS) });
      if (error.status === 404 && error.detail.startsWith('id: ')) return t('notFound');
      return withoutField(failureText(error));
    },
    [t, failureText],
  );
}
