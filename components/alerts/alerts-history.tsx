'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslations } from 'use-intl';
import styles from '@/components/admin/admin.module.css';
import { useWhen } from '@/components/admin/use-when';
import type { AlertHistoryEntry } from '@/lib/contract/alerts';
import { NO_CROP } from '@/lib/explorer/rows';
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
    mutationFn: (ids: string[] | null) =>
      callApi('/api/alerts/history/read', { method: 'POST', body: ids ? { ids } : {} }),
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

/** Whether a delivery arrived, waits for its digest, is still being sent (after failed attempts), or failed, and why. */
function Outcome({ entry }: { entry: AlertHistoryEntry }) {
  const t = useTranslations('alerts.history');
  switch (entry.state) {
    case 'delivered':
      return <span className={styles.badge}>{t('delivered')}</span>;
    case 'digest':
      return (
        <>
          <span className={own.quietBadge}>{t(entry.digest === 'hourly' ? 'waitingHourly' : 'waitingDaily')}</span>
          {entry.error && <span className={own.reason}>{t('lastAttempt', { detail: entry.error })}</span>}
        </>
      );
    case 'pending':
      return (
        <>
          <span className={own.quietBadge}>{t('sending')}</span>
          {entry.error && (
            <span className={own.reason}>{t('retrying', { count: entry.attempts, detail: entry.error })}</span>
          )}
        </>
      );
    default:
      return (
        <>
          <span className={styles.warnBadge}>{t('failed')}</span>
          {entry.error && <span className={own.reason}>{entry.error}</span>}
        </>
      );
  }
}

/** What fired in the reader's words; the server's English summary for an entry without facts. */
function What({ entry }: { entry: AlertHistoryEntry }) {
  const t = useTranslations('alerts.history');
  const when = useWhen();
  const what = entry.what;
  if (!what) return entry.summary;
  const crop = (name: string) => (name === NO_CROP ? t('noCrop') : name);
  switch (what.kind) {
    case 'batches': {
      const names = what.names.join(', ');
      return t('whatBatches', {
        count: what.total,
        names: what.total > what.names.length ? t('whatMore', { names }) : names,
      });
    }
    case 'control-signal':
      return t(what.signal === 'limits' ? 'whatSignalLimits' : 'whatSignalRun', {
        crop: crop(what.crop),
        metric: t(`metrics.${what.metric}`),
        count: what.total,
      });
    case 'silent':
      return t(what.by === 'crop' ? 'whatSilentCrop' : 'whatSilentScanner', {
        who: what.by === 'crop' ? crop(what.who) : what.who,
        days: what.days,
      });
    case 'outage':
      return t('whatOutage', { since: when(what.since) });
  }
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
        <What entry={entry} />
      </td>
      <td data-label={t('batches')}>
        {entry.batchIds.length === 0 ? (
          '—'
        ) : (
          <span className={own.batchLinks}>
            {shown.map((id) => (
              <a
                key={id}
                href={withOrg(`/batches?batch=${encodeURIComponent(id)}`)}
                aria-label={t('openBatch', { id })}
              >
                {id}
              </a>
            ))}
            {entry.batchIds.length > shown.length && (
              <span>{t('more', { count: entry.batchIds.length - shown.length })}</span>
            )}
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
