import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { AppHeader } from '@/components/auth/app-header';
import { RoleProvider } from '@/components/auth/role-context';
import { BatchExplorerClient } from '@/components/explorer/view/batch-explorer-client';
import { headerPerson, pageActor, type PageParams } from '@/lib/server/auth/page-actor';
import { serverTranslator } from '@/lib/server/http/reader-locale';
import { defaultViewPath, openedDefaultName } from '@/lib/server/settings/default-view';
import styles from './batches.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('common'))('batchesTitle') };
}

export default async function BatchesPage({ searchParams }: { searchParams: Promise<PageParams> }) {
  const given = await searchParams;
  const actor = await pageActor('/batches', given);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(given)) for (const one of [v ?? []].flat()) params.append(k, one);
  // A member of several organisations always sees which one in the address, so a link they share names it.
  if (!params.get('org') && actor.memberships.length > 1) {
    params.set('org', actor.organisation.slug);
    redirect(`/batches?${params}`);
  }
  // A bare URL opens the organisation's default view, here rather than in the browser: no flash, one load. The
  // page it leads to says which view it opened, once (the explorer then takes `opened` out of the address).
  const view = await defaultViewPath(actor.organisation.id, params);
  if (view) redirect(view);
  const openedDefault = await openedDefaultName(actor.organisation.id, params);
  const t = await serverTranslator('common');
  return (
    <>
      <AppHeader person={await headerPerson(actor)} current="batches" path="/batches" org={params.get('org')} />
      <main className={styles.main}>
        <h1 className={`${styles.title} screen-only`}>{t('batchesTitle')}</h1>
        <p className={`${styles.intro} screen-only`}>{t('batchesIntro')}</p>
        <Suspense fallback={<p>{t('loading')}</p>}>
          <RoleProvider role={actor.role}>
            <BatchExplorerClient organisation={actor.organisation.name} defaultView={openedDefault} />
          </RoleProvider>
        </Suspense>
      </main>
    </>
  );
}
