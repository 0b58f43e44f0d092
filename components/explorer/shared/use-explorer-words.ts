'use client';

import { useCallback, useMemo } from 'react';
import { useTranslations } from 'use-intl';
import type { Zone } from '@/lib/explorer/date-range';
import { describeSpans, spanWordsOf, type Span } from '@/lib/explorer/missing';
import { NO_CROP } from '@/lib/explorer/rows';
import { useFormats } from '@/components/i18n/use-formats';

/** The explorer's translator, for helpers that are handed one. */
export type ExplorerT = ReturnType<typeof useTranslations<'explorer'>>;

/**
 * A calendar day (ms in `zone`) as the explorer's sentences write it: in the reader's notation (`1 Mar 2025`,
 * `Mar 1, 2025`, `01.03.2025`), as the date fields show it. ISO days belong in the URL, not in sentences.
 */
export function useDayText(): (ms: number, zone: Zone) => string {
  return useFormats().date;
}

/** A URL day (`YYYY-MM-DD`) in the explorer's sentences: see useDayText. */
export function useUrlDayText(): (day: string) => string {
  const dayText = useDayText();
  return useCallback((day: string) => dayText(Date.parse(`${day}T12:00:00Z`), 'UTC'), [dayText]);
}

/** The spans still missing, said in the reader's language (`1 Mar 2025 to 31 Mar 2025`, `01.03.2025 bis 31.03.2025`). */
export function useDescribeSpans(): (spans: readonly Span[], zone: Zone) => string {
  const t = useTranslations('explorer.spans');
  const f = useFormats();
  const day = useDayText();
  const words = useMemo(() => spanWordsOf(t, f.count, day), [t, f, day]);
  return useCallback((spans, zone) => describeSpans(spans, zone, 3, words), [words]);
}

/** A crop key as people read it: batches without a crop are "No crop recorded". */
export function useCropLabel(): (key: string) => string {
  const t = useTranslations('explorer');
  return useCallback((key: string) => (key === NO_CROP ? t('cropNone') : key), [t]);
}
