'use client';

import type { MouseEvent } from 'react';
import { useTranslations } from 'use-intl';
import { PRESET_ENDS } from '@/lib/explorer/range/rolling';
import { queryString, type ExplorerState } from '@/lib/explorer/url-state';
import styles from './default-view-notice.module.css';

type Props = {
  /** The name of the organisation's default view the bare `/batches` opened. */
  name: string;
  zone: ExplorerState['tz'];
  onDone: () => void;
};

/**
 * Says that the page opened the organisation's default view rather than every batch, with the way to every
 * batch (All time, no filters, in the same zone): a history entry, as the explorer's own changes are.
 */
export function DefaultViewNotice({ name, zone, onDone }: Props) {
  const t = useTranslations('explorer.views');
  const href = `/batches?${queryString(new URLSearchParams({ ...PRESET_ENDS.all, tz: zone }))}`;
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    window.history.pushState(null, '', href);
    onDone();
  };
  return (
    <div role="note" className={`${styles.notice} screen-only`}>
      <p>{t('openedDefault', { name })}</p>
      <a href={href} onClick={open}>
        {t('showAll')}
      </a>
      <button type="button" className="button" onClick={onDone}>
        {t('dismiss')}
      </button>
    </div>
  );
}
