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
    // The entries shown, so that one arriving meanwhile stays unread; all of them when some are not shown.
    mutationFn: (ids: string[] | null) => callApi('/api/alerts/history/read', { method: 'POST', body: ids ? { ids } : {} }),
    onSuccess: () => window.dispatchEvent(new Event(ALERTS_READ_EVENT)),
  });
  const { mutate } = read;
  useEffect(() => {
    if (!history.data || history.data.unread === 0 || marked.current) return;
    marked.current = true;
    const shown = history.data.entries.filter((e) => e.read === false).map((e) => e.id);
    mutate(shown.length >= history.data.unread ? shown : null);
  }, [history.data, mutate]);

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

/**
 * Whether a delivery arrived, waits for its digest, is still being sent, or failed, and why. The history's
 * `detail` is the server's sentence; its opening words tell the waiting and the retried apart from the failed.
 */
function Outcome({ entry }: { entry: AlertHistoryEntry }) {
  const t = useTranslations('alerts.history');
  if (entry.delivered) return <span className={styles.badge}>{t('delivered')}</span>;
  const detail = entry.detail ?? '';
  const waiting = /^waits for the (hourly|daily) digest(?:; the last attempt failed: ([\s\S]*))?$/.exec(detail);
  if (waiting) {
    return (
      <>
        <span className={own.quietBadge}>{t(waiting[1] === 'hourly' ? 'waitingHourly' : 'waitingDaily')}</span>
        {waiting[2] && <span className={own.reason}>{t('lastAttempt', { detail: waiting[2] })}</span>}
      </>
    );
  }
  if (detail === 'sending' || detail.startsWith('retrying ')) {
    return (
      <>
        <span className={own.quietBadge}>{t('sending')}</span>
        {detail !== 'sending' && <span className={own.reason}>{detail}</span>}
      </>
    );
  }
  return (
    <>
      <span className={styles.warnBadge}>{t('failed')}</span>
      {detail && <span className={own.reason}>{detail}</span>}
    </>
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
      <td data-label={t('to')} className={own.recipient}>
        {entry.recipient}
      </td>
      <td data-label={t('channel')}>{t(`channels.${entry.channel}`)}</td>
      <td data-label={t('result')}>
        <Outcome entry={entry} />
      </td>
    </tr>
  );
}
