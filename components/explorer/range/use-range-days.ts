'use client';

import { useMemo } from 'react';
import { resolveRange, reversed, type RangeDays } from '@/lib/explorer/range/rolling';
import type { DateError, ExplorerState } from '@/lib/explorer/url-state';
import { useToday } from './use-today';

export type ShownRange = {
  /** The calendar days the URL's range stands for today, in its zone (an open end undefined). */
  days: RangeDays;
  /** Today in the URL's zone. */
  today: string;
  /** From after To once the ends are days (a link may say so, or a rolling start pass a fixed end). */
  reversed: DateError | null;
};

/** The days the URL's range (`now-90d`, `now/y`, days) shows now; they move on at the zone's midnight. */
export function useRangeDays({ from, to, tz }: Pick<ExplorerState, 'from' | 'to' | 'tz'>): ShownRange {
  const today = useToday(tz);
  return useMemo(() => {
    const days = resolveRange(from, to, today);
    return { days, today, reversed: reversed(days) ? { kind: 'order', from: days.from!, to: days.to! } : null };
  }, [from, to, today]);
}
