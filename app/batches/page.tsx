import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { BatchExplorerClient } from '@/components/explorer/batch-explorer-client';
import { SignOutButton } from '@/components/sign-out-button';
import { sessionCookieValue, sessions } from '@/lib/server/session';
import { defaultViewPath } from '@/lib/server/settings/default-view';
import styles from './batches.module.css';

export const metadata: Metadata = { title: 'Batches' };

export default async function BatchesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // Read as the API reads it: the raw value under the name the scheme calls for. One that does not open is no session.
  const session = await sessions().read(sessionCookieValue(await headers()));
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) for (const one of [v ?? []].flat()) params.append(k, one);
  if (!session) {
    const here = `/batches${params.size ? `?${params}` : ''}`;
    redirect(`/sign-in?next=${encodeURIComponent(here)}`);
  }
  // A URL without state opens the organisation's default view, here rather than in the browser: no flash, one load.
  const view = await defaultViewPath(session.clientId, params);
  if (view) redirect(view);
  return (
    <>
      <header className={`${styles.header} screen-only`}>
        <span className={styles.brand}>Tray-scan batches</span>
        <span className={styles.org}>
          Signed in as <strong>{session.clientId}</strong>
        </span>
        <SignOutButton />
      </header>
      <main className={styles.main}>
        <h1 className={`${styles.title} screen-only`}>Batches</h1>
        <p className={`${styles.intro} screen-only`}>
          Every tray scan of your organisation in the chosen days: germination and usable-seedling rates, size
          uniformity, warnings and analysis reports. Filter, sort and export; the address bar keeps the view, so a
          link shows a colleague exactly what you see.
        </p>
        <Suspense fallback={<p>Loading…</p>}>
          <BatchExplorerClient organisation={session.clientId} />
        </Suspense>
      </main>
    </>
  );
}
