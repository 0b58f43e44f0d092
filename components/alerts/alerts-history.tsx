'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslations } from 'use-intl';
import styles from '@/components/admin/admin.module.css';
import { useWhen } from '@/components/admin/use-when';
import type { AlertHistoryEntry } from '@/lib/contract/alerts';
import { withOrg } from '@/lib/org-param';
import { callApi } from '@/lib/people/api-client';
import own from './alerts.module.css';
import { ALERTS_READ_EVENT, useHistory } from './use-alerts-api';

/** Batches one line links to; the rest are counted. */
const LINKED = 10;

/**
 * What fired, when, for which batches, to whom over which channel, and whether it arrived (or why not),
 * newest first. Once shown, the person's own unread entries are marked read (they stay marked new here).
 */
export function AlertsHistory() {
  const t = useTranslations('alerts.history');
  const when = useWhen();
  const history = useHistory();
  const marked = useRef(false);
  const read = useMutation({
    mutationFn: () => callApi('/api/alerts/history/read', { method: 'POST' }),
    onSuccess: () => window.dispatchEvent(new Event(ALERTS_READ_EVENT)),
  });
  const unread = history.data?.unread ?? 0;
  const { mutate } = read;
  useEffect(() => {
    if (unread > 0 && !marked.current) {
      marked.current = true;
      mutate();
    }
  }, [unread, mutate]);

  return (
    <section className={styles.card} aria-labelledby="alerts-history-title" id="history" tabIndex={-1}>
      <h2 id="alerts-history-title">{t('title')}</h2>
      <p className={styles.muted}>{t('intro')}</p>
      {history.isPending ? (
        <p className={styles.muted}>{t('loading')}</p>
      ) : history.isError ? (
        <p role="alert" className={styles.problem}>
          {t('loadFailed', { detail: history.error.detail.replace(/^\w+: /, '') })}
        </p>
      ) : history.data.entries.length === 0 ? (
        <p className={styles.muted}>{t('none')}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">{t('caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('when')}</th>
                <th scope="col">{t('alert')}</th>
                <th scope="col">{t('what')}</th>
                <th scope="col">{t('batches')}</th>
                <th scope="col">{t('to')}</th>
                <th scope="col">{t('channel')}</th>
                <th scope="col">{t('result')}</th>
              </tr>
            </thead>
            <tbody>
              {history.data.entries.map((entry) => (
                <HistoryRow key={entry.id} entry={entry} when={when(entry.at)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function HistoryRow({ entry, when }: { entry: AlertHistoryEntry; when: string }) {
  const t = useTranslations('alerts.history');
  const shown = entry.batchIds.slice(0, LINKED);
  return (
    <tr className={entry.read === false ? own.unread : undefined}>
      <td>
        {when}
        {entry.read === false && (
          <>
            {' '}
            <span className={styles.badge}>{t('new')}</span>
          </>
        )}
      </td>
      <td data-label={t('alert')}>{entry.ruleName}</td>
      <td data-label={t('what')} className={own.summary}>
        {entry.summary}
      </td>
      <td data-label={t('batches')}>
        {entry.batchIds.length === 0 ? (
          '—'
        ) : (
          <span className={own.batchLinks}>
            {shown.map((id) => (
              <a key={id} href={withOrg(`/batches?batch=${encodeURIComponent(id)}`)} aria-label={t('openBatch', { id })}>
                {id}
              </a>
            ))}
            {entry.batchIds.length > shown.length && <span>{t('more', { count: entry.batchIds.length - shown.length })}</span>}
          </span>
        )}
      </td>
      <td data-label={t('to')} className={own.summary}>
        {entry.recipient}
      </td>
      <td data-label={t('channel')}>{t(`channels.${entry.channel}`)}</td>
      <td data-label={t('result')}>
        {entry.delivered ? (
          <span className={styles.badge}>{t('delivered')}</span>
        ) : (
          <>
            <span className={styles.warnBadge}>{t('notDelivered')}</span>
            {entry.detail && <span className={own.reason}>{entry.detail}</span>}
          </>
        )}
      </td>
    </tr>
  );
}
