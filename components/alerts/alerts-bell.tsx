'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'use-intl';
import type { AlertHistory } from '@/lib/contract/alerts';
import { withOrg } from '@/lib/org-param';
import { callApi } from '@/lib/people/api-client';
import own from './alerts.module.css';
import { ALERTS_READ_EVENT } from './use-alerts-api';

/**
 * The header's bell: how many alerts the signed-in person has not read yet, a link to the history (which marks
 * them read). Counted once the page is idle and again whenever the tab comes back into view; before that (or
 * when the count cannot be had) it is a plain link.
 */
export function AlertsBell({ org }: { org: string | null }) {
  const t = useTranslations('alerts.bell');
  const [unread, setUnread] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    let asking: AbortController | null = null;
    const count = () => {
      asking?.abort();
      asking = new AbortController();
      callApi<AlertHistory>('/api/alerts/history?limit=1', { signal: asking.signal })
        .then((history) => live && setUnread(history.unread))
        .catch(() => undefined);
    };
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(count) : window.setTimeout(count, 200);
    const visible = () => document.visibilityState === 'visible' && count();
    // Marked read on the history: a count asked for before that is out of date.
    const read = () => {
      asking?.abort();
      setUnread(0);
    };
    document.addEventListener('visibilitychange', visible);
    window.addEventListener(ALERTS_READ_EVENT, read);
    return () => {
      live = false;
      asking?.abort();
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
      else window.clearTimeout(idle);
      document.removeEventListener('visibilitychange', visible);
      window.removeEventListener(ALERTS_READ_EVENT, read);
    };
  }, []);
  const label = unread === null ? t('label') : unread === 0 ? t('none') : t('unread', { count: unread });
  return (
    <a href={withOrg('/alerts#history', org)} className={own.bell} aria-label={label} title={label}>
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="20"
        height="20"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread !== null && unread > 0 && (
        <span className={own.count} aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </a>
  );
}
