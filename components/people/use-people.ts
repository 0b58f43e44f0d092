'use client';

import { useQuery } from '@tanstack/react-query';
import type { PersonRef } from '@/lib/contract/alerts';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { callApi } from '@/lib/people/api-client';

/** The organisation's people (`GET /api/people`), to choose the recipients of an alert or a report from. */
export const usePeople = () =>
  useQuery<{ people: PersonRef[] }, ApiFailure>({
    queryKey: ['people'],
    queryFn: ({ signal }) => callApi('/api/people', { signal }),
    retry: false,
    staleTime: 60_000,
  });
