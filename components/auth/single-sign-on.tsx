'use client';

import { useTranslations } from 'use-intl';
import type { SsoFailure } from '@/lib/auth/sso-failures';
import styles from './single-sign-on.module.css';

/**
 * The sign-in page's single sign-on: why the last attempt failed, if it did, and `Sign in with <name>` when
 * OpenID Connect is configured. A plain link, not a form: the start answers with a redirect to the provider,
 * which the page's `form-action 'self'` policy would block after a form submission.
 */
export function SingleSignOn({
  provider,
  failure,
  next,
}: {
  provider: string | null;
  failure: SsoFailure | null;
  next: string;
}) {
  const t = useTranslations('sso');
  const start = `/api/auth/oidc/start${next === '/batches' ? '' : `?next=${encodeURIComponent(next)}`}`;
  return (
    <div className={styles.sso}>
      {failure && (
        <p role="alert" className={styles.failure}>
          {t(`failure.${failure}`, { name: provider ?? 'SSO' })}
        </p>
      )}
      {provider && (
        <>
          <a className={styles.button} href={start}>
            {t('button', { name: provider })}
          </a>
          <p className={styles.or}>
            <span>{t('or')}</span>
          </p>
        </>
      )}
    </div>
  );
}
