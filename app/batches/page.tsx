import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { BatchExplorerClient } from '@/components/explorer/batch-explorer-client';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { SignOutButton } from '@/components/sign-out-button';
import { languageChoice, serverTranslator } from '@/lib/server/reader-locale';
import { sessionCookieValue, sessions } from '@/lib/server/session';
import { defaultViewPath, openedDefaultName } from '@/lib/server/settings/default-view';
import styles from './batches.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('common'))('batchesTitle') };
}

export default async function BatchesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // Read as the API reads it: the raw value under the name the scheme calls for. One that does not open is no session.
  const session = await sessions().read(sessionCookieValue(await headers()));
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) for (const one of [v ?? []].flat()) params.append(k, one);
  if (!session) {
    const here = `/batches${params.size ? `?${params}` : ''}`;
    redirect(`/sign-in?next=${encodeURIComponent(here)}`);
  }
  // A bare URL opens the organisation's default view, here rather than in the browser: no flash, one load. The
  // page it leads to says which view it opened, once (the explorer then takes `opened` out of the address).
  const view = await defaultViewPath(session.clientId, params);
  if (view) redirect(view);
  const openedDefault = await openedDefaultName(session.clientId, params);
  const t = await serverTranslator('common');
  return (
    <>
      <header className={`${styles.header} screen-only`}>
        <span className={styles.brand}>{t('brand')}</span>
        <span className={styles.org}>{t.rich('signedInAs', { org: () => <strong>{session.clientId}</strong> })}</span>
        <LanguageSwitch {...await languageChoice()} />
        <SignOutButton />
      </header>
      <main className={styles.main}>
        <h1 className={`${styles.title} screen-only`}>{t('batchesTitle')}</h1>
        <p className={`${styles.intro} screen-only`}>{t('batchesIntro')}</p>
        <Suspense fallback={<p>{t('loading')}</p>}>
          <BatchExplorerClient organisation={session.clientId} defaultView={openedDefault} />
        </Suspense>
      </main>
    </>
  );
}
