'use client';

import { useQuery } from '@tanstack/react-query';
import type { AlertHistory, AlertRuleList } from '@/lib/contract/alerts';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { fetchTargets } from '@/lib/explorer/targets-api';
import { callApi } from '@/lib/people/api-client';

/** The alerts page's data: the organisation's rules, the history, its people and its crops (react-query keys and reads). */

export const RULES_KEY = ['alerts', 'rules'] as const;
export const HISTORY_KEY = ['alerts', 'history'] as const;

/** The window event the page sends once it has marked the asker's entries read (the header's bell listens). */
export const ALERTS_READ_EVENT = 'tsb:alerts-read';

export const useRules = () =>
  useQuery<AlertRuleList, ApiFailure>({
    queryKey: RULES_KEY,
    queryFn: ({ signal }) => callApi('/api/alerts', { signal }),
    retry: false,
  });

export const useHistory = () =>
  useQuery<AlertHistory, ApiFailure>({
    queryKey: HISTORY_KEY,
    queryFn: ({ signal }) => callApi('/api/alerts/history', { signal }),
    retry: false,
  });

export { usePeople } from '@/components/people/use-people';

const DAY_MS = 86_400_000;
/** How far back the crop list looks at batches: the crops grown lately, from one page of the service. */
const RECENT_DAYS = 180;

/**
 * Crops to suggest for a rule: those with targets of their own and those of recent batches, sorted. A crop
 * the list lacks can still be typed; a failed look-up only leaves the list shorter.
 */
export const useCrops = () =>
  useQuery<string[]>({
    queryKey: ['alerts', 'crops'],
    staleTime: 5 * 60_000,
    retry: false,
    queryFn: async ({ signal }) => {
      const since = new Date(Date.now() - RECENT_DAYS * DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z');
      const [targets, batches] = await Promise.allSettled([
        fetchTargets(signal),
        callApi<{ data: { crop_type: string | null }[] }>(`/api/batches?start_date=${encodeURIComponent(since)}`, {
          signal,
        }),
      ]);
      const crops = new Set<string>();
      if (targets.status === 'fulfilled') for (const crop of Object.keys(targets.value.targets.crops)) crops.add(crop);
      if (batches.status === 'fulfilled')
        for (const { crop_type } of batches.value.data) if (crop_type) crops.add(crop_type);
      return [...crops].sort((a, b) => a.localeCompare(b));
    },
  });
