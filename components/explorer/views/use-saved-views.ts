'use client';

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { MAX_VIEWS, type SavedView, type ViewChange } from '@/lib/contract/views';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { changeView, createView, deleteView, fetchViews } from '@/lib/explorer/views-api';
import { useFailureText } from '../shared/use-failure-text';

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
  const create = useMutation<SavedView, ApiFailure, { name: string; query: string; shared?: boolean }>({
    mutationFn: ({ name, query, shared }) => createView(name, query, shared),
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
 * The existing view a taken name belongs to, as our server's refusal names it (names are compared without
 * regard to case, so it may be spelt otherwise than the name tried); null for any other sentence.
 */
const TAKEN = /^name: a view named "(.*)" already exists in your organisation; choose another name$/s;

/**
 * Why a change to the saved views failed, beside the field it concerns: the known refusals in the reader's
 * language (a name taken, too many views, a view gone), any other in the server's own sentence.
 */
export function useViewProblem(): (error: ApiFailure) => string {
  const t = useTranslations('explorer.views');
  const failureText = useFailureText();
  return useCallback(
    (error: ApiFailure) => {
      const taken = error.status === 409 ? TAKEN.exec(error.detail) : null;
      if (taken) return t('nameTaken', { name: taken[1]! });
      if (error.status === 409 && error.detail.startsWith('name: ')) return t('nameTakenOther');
      if (error.status === 409 && error.detail.startsWith('views: ')) return t('tooMany', { max: String(MAX_VIEWS) });
      if (error.status === 404 && error.detail.startsWith('id: ')) return t('notFound');
      return withoutField(failureText(error));
    },
    [t, failureText],
  );
}
