import type { Metadata } from 'next';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { SignInForm } from '@/components/sign-in-form';
import { safeNextPath } from '@/lib/safe-next';
import { getConfig } from '@/lib/server/config';
import { languageChoice, serverTranslator } from '@/lib/server/reader-locale';
import styles from './sign-in.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('signIn'))('title') };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next } = await searchParams;
  const { demo, oidc } = getConfig();
  const [t, brand] = await Promise.all([serverTranslator('signIn'), serverTranslator('common')]);
  const back = safeNextPath(typeof next === 'string' ? next : undefined);
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
      {oidc && (
        <>
          <a className={styles.sso} href={`/api/auth/oidc/start?next=${encodeURIComponent(back)}`}>
            {t('withProvider', { name: oidc.name })}
          </a>
          <p className={styles.or}>{t('or')}</p>
        </>
      )}
      <SignInForm next={back} />
    </main>
  );
}
