'use client';

import { useCallback, useSyncExternalStore } from 'react';
import type { Zone } from '@/lib/explorer/date-range';
import { todayIn } from '@/lib/explorer/range/rolling';
import { dayIn, startOfDayIn } from '@/lib/explorer/zones';

/** The first instant of the day after `now`'s in the zone. */
function nextMidnight(zone: Zone, now: number): number {
  const { y, m, d } = dayIn(now, zone);
  return startOfDayIn(y, m, d + 1, zone);
}

/**
 * Today in the URL's zone, for rolling ranges (`now-7d`): it changes at the zone's midnight, so a page left open
 * overnight moves to the new day's range as a Grafana dashboard does. Timers sleep with the machine and run late
 * in background tabs, so the day is read again whenever the page is shown again.
 */
export function useToday(zone: Zone): string {
  const subscribe = useCallback(
    (changed: () => void) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(timer);
        // A second past midnight (a timer may fire a little early); at most a day ahead.
        const wait = Math.min(nextMidnight(zone, Date.now()) - Date.now() + 1000, 86_400_000);
        timer = setTimeout(
          () => {
            changed();
            arm();
          },
          Math.max(wait, 1000),
        );
      };
      const shown = () => {
        if (document.visibilityState === 'visible') {
          changed();
          arm();
        }
      };
      arm();
      document.addEventListener('visibilitychange', shown);
      window.addEventListener('focus', shown);
      return () => {
        clearTimeout(timer);
        document.removeEventListener('visibilitychange', shown);
        window.removeEventListener('focus', shown);
      };
    },
    [zone],
  );
  const today = useCallback(() => todayIn(zone), [zone]);
  return useSyncExternalStore(subscribe, today, today);
}
