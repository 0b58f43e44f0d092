'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslations } from 'use-intl';
import type { ConnectionInfo, ConnectionTest } from '@/lib/contract/people';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { callApi } from '@/lib/people/api-client';
import styles from './admin.module.css';
import { useWhen } from './use-when';

const KEY = ['admin', 'connection'] as const;

/**
 * The organisation's connection to the Batch Data Service: its client ID and who set the secret when (never
 * the secret); **Test connection** (a real sign-in at the service) and **Replace secret** (tried at the
 * service first, saved only when it is accepted).
 */
export function ConnectionAdmin() {
  const t = useTranslations('people.connection');
  const when = useWhen();
  const client = useQueryClient();
  const connection = useQuery<ConnectionInfo, ApiFailure>({
    queryKey: KEY,
    queryFn: ({ signal }) => callApi('/api/admin/connection', { signal }),
    retry: false,
  });
  const test = useMutation<ConnectionTest, ApiFailure>({
    mutationFn: () => callApi('/api/admin/connection/test', { method: 'POST' }),
  });
  const [clientId, setClientId] = useState<string | null>(null);
  const [secret, setSecret] = useState('');
  const replace = useMutation<ConnectionInfo, ApiFailure>({
    mutationFn: () =>
      callApi('/api/admin/connection', {
        method: 'PUT',
        body: {
          clientSecret: secret,
          ...(clientId !== null && clientId !== connection.data?.clientId && { clientId }),
        },
      }),
    onSuccess: (info) => {
      client.setQueryData(KEY, info);
      setSecret('');
      setClientId(null);
      test.reset();
    },
  });

  if (connection.isPending) return <p className={styles.muted}>{t('loading')}</p>;
  if (connection.isError)
    return (
      <p role="alert" className={styles.problem}>
        {t('loadFailed', { detail: connection.error.detail })}
      </p>
    );
  const info = connection.data;
  return (
    <>
      <section className={styles.card} aria-labelledby="connection-title">
        <h2 id="connection-title">{t('current')}</h2>
        <dl className={styles.facts}>
          <dt>{t('clientId')}</dt>
          <dd>
            <code>{info.clientId}</code>
          </dd>
          <dt>{t('secret')}</dt>
          <dd>
            {info.secretSetAt
              ? info.secretSetBy
                ? t('setOnBy', {
                    date: when(info.secretSetAt),
                    person: info.secretSetBy.name || info.secretSetBy.email,
                  })
                : t('setOn', { date: when(info.secretSetAt) })
              : t('notSet')}
          </dd>
        </dl>
        <div className={styles.actions}>
          <button type="button" className="button" disabled={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? t('testing') : t('test')}
          </button>
          <span aria-live="polite" className={test.data?.ok ? styles.ok : styles.problem}>
            {test.isSuccess
              ? test.data.ok
                ? t('accepted')
                : t('refused', { detail: test.data.detail })
              : test.isError
                ? t('testFailed', { detail: test.error.detail })
                : ''}
          </span>
        </div>
      </section>
      <section className={styles.card} aria-labelledby="replace-title">
        <h2 id="replace-title">{t('replaceTitle')}</h2>
        <p className={styles.muted}>{t('replaceHelp')}</p>
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            replace.mutate();
          }}
        >
          <label className={`${styles.field} ${styles.wide}`}>
            {t('clientId')}
            <input
              value={clientId ?? info.clientId}
              maxLength={256}
              spellCheck={false}
              onChange={(e) => setClientId(e.target.value)}
            />
          </label>
          <label className={`${styles.field} ${styles.wide}`}>
            {t('newSecret')}
            <input
              type="password"
              autoComplete="off"
              value={secret}
              maxLength={1024}
              onChange={(e) => (setSecret(e.target.value), replace.reset())}
              aria-invalid={replace.isError || undefined}
            />
          </label>
          <button type="submit" className="button" disabled={secret === '' || replace.isPending}>
            {replace.isPending ? t('replacing') : t('replace')}
          </button>
        </form>
        <p
          aria-live="polite"
          className={replace.isError ? styles.problem : styles.ok}
          role={replace.isError ? 'alert' : undefined}
        >
          {replace.isSuccess
            ? t('replaced')
            : replace.isError
              ? t('notReplaced', { detail: replace.error.detail.replace(/^\w+: /, '') })
              : ''}
        </p>
      </section>
    </>
  );
}
