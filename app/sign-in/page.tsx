import type { Metadata } from 'next';
import { SingleSignOn } from '@/components/auth/single-sign-on';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { SignInForm } from '@/components/sign-in-form';
import { isSsoFailure, SSO_ERROR_PARAM } from '@/lib/auth/sso-failures';
import { safeNextPath } from '@/lib/safe-next';
import { getConfig } from '@/lib/server/config';
import { languageChoice, serverTranslator } from '@/lib/server/http/reader-locale';
import styles from './sign-in.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('signIn'))('title') };
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const { demo, oidc } = getConfig();
  const [t, brand] = await Promise.all([serverTranslator('signIn'), serverTranslator('common')]);
  const back = safeNextPath(typeof params.next === 'string' ? params.next : undefined);
  const failure = params[SSO_ERROR_PARAM];
  return (
    <main className={styles.main}>
      <div className={styles.language}>
        <LanguageSwitch {...await languageChoice()} />
      </div>
      <h1>{brand('brand')}</h1>
      <p className={styles.muted}>{t(oidc ? 'introSso' : 'intro')}</p>
      {demo && (
        <aside className={styles.demo} aria-label={t('demoLabel')}>
          {t.rich('demo', { strong: (chunks) => <strong>{chunks}</strong>, command: () => <code>npm run demo</code> })}
        </aside>
      )}
      <SingleSignOn provider={oidc?.name ?? null} failure={isSsoFailure(failure) ? failure : null} next={back} />
      <SignInForm next={back} />
    </main>
  );
}
