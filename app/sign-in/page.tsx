import type { Metadata } from 'next';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { SignInForm } from '@/components/sign-in-form';
import { DEMO_CREDENTIALS } from '@/lib/demo-credentials';
import { safeNextPath } from '@/lib/safe-next';
import { getConfig } from '@/lib/server/config';
import { languageChoice, serverTranslator } from '@/lib/server/reader-locale';
import styles from './sign-in.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('signIn'))('title') };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next } = await searchParams;
  const demo = getConfig().demo;
  const [t, brand] = await Promise.all([serverTranslator('signIn'), serverTranslator('common')]);
  return (
    <main className={styles.main}>
      <div className={styles.language}>
        <LanguageSwitch {...await languageChoice()} />
      </div>
      <h1>{brand('brand')}</h1>
      <p className={styles.muted}>{t('intro')}</p>
      {demo && (
        <aside className={styles.demo} aria-label={t('demoLabel')}>
          {t.rich('demo', {
            strong: (chunks) => <strong>{chunks}</strong>,
            id: () => <code>{DEMO_CREDENTIALS.clientId}</code>,
            secret: () => <code>{DEMO_CREDENTIALS.clientSecret}</code>,
          })}
        </aside>
      )}
      <SignInForm next={safeNextPath(typeof next === 'string' ? next : undefined)} />
    </main>
  );
}
