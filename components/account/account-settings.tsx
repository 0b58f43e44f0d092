'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslations } from 'use-intl';
import styles from '@/components/admin/admin.module.css';
import { useWhen } from '@/components/admin/use-when';
import type { AccountInfo, AccountSession } from '@/lib/contract/people';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { zoneChoices } from '@/lib/explorer/zones';
import { LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n/languages';
import { callApi } from '@/lib/people/api-client';

const SESSIONS = ['account', 'sessions'] as const;

/** The person's own account: their name, the language and time zone e-mails to them will use, and their sessions. */
export function AccountSettings() {
  return (
    <>
      <Profile />
      <Sessions />
    </>
  );
}

function Profile() {
  const t = useTranslations('people.account');
  const client = useQueryClient();
  const account = useQuery<AccountInfo, ApiFailure>({
    queryKey: ['account'],
    queryFn: ({ signal }) => callApi('/api/account', { signal }),
    retry: false,
  });
  const [draft, setDraft] = useState<Partial<AccountInfo>>({});
  const zones = useMemo(() => zoneChoices(), []);
  const save = useMutation<AccountInfo, ApiFailure>({
    mutationFn: () =>
      callApi('/api/account', {
        method: 'PATCH',
        body: { ...draft, ...(draft.name !== undefined && { name: draft.name.trim() }) },
      }),
    onSuccess: (info) => {
      client.setQueryData(['account'], info);
      setDraft({});
    },
  });
  if (account.isPending) return <p className={styles.muted}>{t('loading')}</p>;
  if (account.isError)
    return (
      <p role="alert" className={styles.problem}>
        {t('loadFailed', { detail: account.error.detail })}
      </p>
    );
  const value = { ...account.data, ...draft };
  return (
    <section className={styles.card} aria-labelledby="profile-title">
      <h2 id="profile-title">{t('profile')}</h2>
      <p className={styles.muted}>{t('signedInAs', { email: account.data.email })}</p>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label className={`${styles.field} ${styles.wide}`}>
          {t('name')}
          <input
            value={value.name}
            maxLength={120}
            autoComplete="name"
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
        </label>
        <label className={styles.field}>
          {t('language')}
          <select
            value={value.language ?? ''}
            onChange={(e) => setDraft({ ...draft, language: e.target.value || null })}
          >
            <option value="">{t('notChosen')}</option>
            {LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          {t('timeZone')}
          <select
            value={value.timeZone ?? ''}
            onChange={(e) => setDraft({ ...draft, timeZone: e.target.value || null })}
          >
            <option value="">{t('notChosen')}</option>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={Object.keys(draft).length === 0 || save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </button>
      </form>
      <p className={styles.muted}>{t('emailsUse')}</p>
      <p
        aria-live="polite"
        className={save.isError ? styles.problem : styles.ok}
        role={save.isError ? 'alert' : undefined}
      >
        {save.isSuccess
          ? t('saved')
          : save.isError
            ? t('notSaved', { detail: save.error.detail.replace(/^\w+: /, '') })
            : ''}
      </p>
    </section>
  );
}

function Sessions() {
  const t = useTranslations('people.account');
  const when = useWhen();
  const client = useQueryClient();
  const sessions = useQuery<{ sessions: AccountSession[] }, ApiFailure>({
    queryKey: SESSIONS,
    queryFn: ({ signal }) => callApi('/api/account/sessions', { signal }),
    retry: false,
  });
  const signOut = useMutation<void, ApiFailure, string | null>({
    mutationFn: (id) =>
      callApi(id === null ? '/api/account/sessions' : `/api/account/sessions/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      }),
    onSettled: () => client.invalidateQueries({ queryKey: SESSIONS }),
  });
  const others = sessions.data?.sessions.filter((s) => !s.current).length ?? 0;
  return (
    <section className={styles.card} aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('sessions')}</h2>
      <p className={styles.muted}>{t('sessionsHelp')}</p>
      {sessions.isPending ? (
        <p className={styles.muted}>{t('loading')}</p>
      ) : sessions.isError ? (
        <p role="alert" className={styles.problem}>
          {t('loadFailed', { detail: sessions.error.detail })}
        </p>
      ) : (
        <>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">{t('browser')}</th>
                  <th scope="col">{t('address')}</th>
                  <th scope="col">{t('signedIn')}</th>
                  <th scope="col">{t('lastSeen')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sessions.data.sessions.map((s) => (
                  <tr key={s.id}>
                    <td>
                      {s.browser}
                      {s.method === 'oidc' && <span className={styles.muted}> · {t('sso')}</span>}
                    </td>
                    <td data-label={t('address')}>{s.address}</td>
                    <td data-label={t('signedIn')}>{when(s.signedInAt)}</td>
                    <td data-label={t('lastSeen')}>{when(s.lastSeenAt)}</td>
                    <td>
                      {s.current ? (
                        <span className={styles.badge}>{t('thisSession')}</span>
                      ) : (
                        <button
                          type="button"
                          className="button"
                          disabled={signOut.isPending}
                          aria-label={t('signOutOf', { browser: s.browser, address: s.address })}
                          onClick={() => signOut.mutate(s.id)}
                        >
                          {t('signOut')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className={styles.actions}>
            <button
              type="button"
              className="button"
              disabled={others === 0 || signOut.isPending}
              onClick={() => signOut.mutate(null)}
            >
              {t('signOutOthers')}
            </button>
            <span aria-live="polite" className={signOut.isError ? styles.problem : styles.ok}>
              {signOut.isSuccess ? t('signedOut') : signOut.isError ? signOut.error.detail : ''}
            </span>
          </div>
        </>
      )}
    </section>
  );
}
