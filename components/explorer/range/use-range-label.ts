'use client';

import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { describeDays } from '@/lib/explorer/drill';
import { parseDay } from '@/lib/explorer/date-range';
import { isRolling, lastDaysOf, NOW, presetOf, reversed } from '@/lib/explorer/range/rolling';
import { useFormats } from '@/components/i18n/use-formats';
import type { ShownRange } from './use-range-days';

/** A rolling range as the page names it: the preset's (or its own) name and the days it stands for today. */
export type RangeLabel = { name: string; days: string };

/**
 * Names a rolling range in the reader's words (`Last 90 days`, `29 Aug – 26 Nov 2026`); null for a range of
 * fixed days, which the From and To fields say on their own.
 */
export function useRangeLabel(): (ends: { from: string; to: string }, shown: ShownRange) => RangeLabel | null {
  const t = useTranslations('explorer.range');
  const f = useFormats();
  return useCallback(
    ({ from, to }, { days, today }) => {
      if (!isRolling(from, to) || reversed(days)) return null;
      const preset = presetOf(from, to);
      const n = lastDaysOf(from);
      const name = preset
        ? t(`preset.${preset}`)
        : n !== null && to === NOW
          ? n === 1
            ? t('today')
            : t('lastDays', { count: f.count(n) })
          : parseDay(from) && to === NOW
            ? t('upToToday')
            : t('custom');
      if (days.from === undefined)
        return { name, days: t('allTimeDays', { today: describeDays({ from: today, to: today }, f) }) };
      return { name, days: describeDays({ from: days.from, to: days.to ?? today }, f) };
    },
    [t, f],
  );
}
