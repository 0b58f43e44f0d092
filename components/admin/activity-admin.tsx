'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslations } from 'use-intl';
import type { ActivityEntry } from '@/lib/contract/people';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { withOrg } from '@/lib/org-param';
import { callApi } from '@/lib/people/api-client';
import { ActivityChange, isRefusedSignIn } from './activity-change';
import styles from './admin.module.css';
import { useWhen } from './use-when';

/** The actions the activity log records (lib/server/audit/audit-store.ts), for the filter. */
const ACTIONS = [
  'sign_in',
  'sign_out',
  'targets_changed',
  'targets_restored',
  'view_created',
  'view_renamed',
  'view_shared',
  'view_unshared',
  'view_deleted',
  'view_made_default',
  'report_scheduled',
  'report_unscheduled',
  'person_invited',
  'person_joined',
  'role_changed',
  'person_disabled',
  'person_enabled',
  'person_removed',
  'sessions_revoked',
  'connection_changed',
  'password_reset_issued',
  'password_set',
  'alert_created',
  'alert_changed',
  'alert_deleted',
  'alert_unsubscribed',
] as const;

type Filter = { from: string; to: string; action: string; actor: string };

const queryOf = (filter: Filter, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams(extra);
  for (const [key, value] of Object.entries(filter)) if (value.trim()) params.set(key, value.trim());
  return params.toString();
};

/** Who did what and when in the organisation, newest first: filtered by days, action and person; exported as CSV. */
export function ActivityAdmin() {
  const t = useTranslations('people.activity');
  const when = useWhen();
  const [draft, setDraft] = useState<Filter>({ from: '', to: '', action: '', actor: '' });
  const [filter, setFilter] = useState<Filter>(draft);
  // The page's org= is known in the browser only (the link is rendered on the server first).
  const csvPath = `/api/admin/activity?${queryOf(filter, { format: 'csv', limit: '10000' })}`;
  const [csvHref, setCsvHref] = useState(csvPath);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the address bar is read once it exists
  useEffect(() => setCsvHref(withOrg(csvPath)), [csvPath]);
  const entries = useQuery<{ entries: ActivityEntry[] }, ApiFailure>({
    queryKey: ['admin', 'activity', filter],
    queryFn: ({ signal }) => callApi(`/api/admin/activity?${queryOf(filter)}`, { signal }),
    retry: false,
  });
  const field = (key: keyof Filter) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });
  const actionName = (action: string) =>
    (ACTIONS as readonly string[]).includes(action) ? t(`actions.${action as (typeof ACTIONS)[number]}`) : action;
  return (
    <section className={styles.card} aria-labelledby="activity-title">
      <h2 id="activity-title" className="visually-hidden">
        {t('entries')}
      </h2>
      <form
        className={styles.form}
        aria-label={t('filter')}
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(draft);
        }}
      >
        <label className={styles.field}>
          {t('from')}
          <input type="date" {...field('from')} />
        </label>
        <label className={styles.field}>
          {t('to')}
          <input type="date" {...field('to')} />
        </label>
        <label className={styles.field}>
          {t('action')}
          {/* Named by its label alone: wrapped, a select's name would take in every option's text too. */}
          <select aria-label={t('action')} {...field('action')}>
            <option value="">{t('anyAction')}</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {actionName(a)}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          {t('actor')}
          <input type="email" placeholder={t('actorPlaceholder')} {...field('actor')} />
        </label>
        <button type="submit" className="button">
          {t('apply')}
        </button>
        <a className="button" href={csvHref} download>
          {t('exportCsv')}
        </a>
      </form>
      {entries.isPending ? (
        <p className={styles.muted}>{t('loading')}</p>
      ) : entries.isError ? (
        <p role="alert" className={styles.problem}>
          {t('loadFailed', { detail: entries.error.detail.replace(/^\w+: /, '') })}
        </p>
      ) : entries.data.entries.length === 0 ? (
        <p className={styles.muted}>{t('none')}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">{t('entries')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('when')}</th>
                <th scope="col">{t('who')}</th>
                <th scope="col">{t('action')}</th>
                <th scope="col">{t('subject')}</th>
                <th scope="col">{t('change')}</th>
                <th scope="col">{t('address')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.data.entries.map((entry, i) => (
                <tr key={`${entry.at}-${i}`}>
                  <td>{when(entry.at)}</td>
                  <td data-label={t('who')}>
                    {entry.actor.name || entry.actor.email}
                    {entry.actor.name && (
                      <>
                        <br />
                        <span className={styles.muted}>{entry.actor.email}</span>
                      </>
                    )}
                  </td>
                  <td data-label={t('action')}>
                    {isRefusedSignIn(entry) ? t('signInRefused') : actionName(entry.action)}
                  </td>
                  <td data-label={t('subject')}>{entry.subject === 'targets' ? t('targets') : entry.subject}</td>
                  <td className={styles.change}>
                    <ActivityChange entry={entry} />
                  </td>
                  <td data-label={t('address')}>{entry.address ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
