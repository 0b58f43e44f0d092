import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { BatchExplorerClient } from '@/components/explorer/batch-explorer-client';
import { SignOutButton } from '@/components/sign-out-button';
import { sessions } from '@/lib/server/session';
import { SESSION_COOKIE } from '@/lib/server/session-rules';
import styles from './batches.module.css';

export const metadata: Metadata = { title: 'Batches' };

export default async function BatchesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await sessions().read((await cookies()).get(SESSION_COOKIE)?.value);
  if (!session) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(await searchParams)) for (const one of [v ?? []].flat()) params.append(k, one);
    const here = `/batches${params.size ? `?${params}` : ''}`;
    redirect(`/sign-in?next=${encodeURIComponent(here)}`);
  }
  return (
    <>
      <header className={styles.header}>
        <span className={styles.brand}>Tray-scan batches</span>
        <span className={styles.org}>
          Signed in as <strong>{session.clientId}</strong>
        </span>
        <SignOutButton />
      </header>
      <main className={styles.main}>
        <h1 className={styles.title}>Batches</h1>
        <p className={styles.intro}>
          Every tray scan of your organisation in the chosen days: germination and usable-seedling rates, size
          uniformity, warnings and analysis reports. Filter, sort and export; the address bar keeps the view, so a
          link shows a colleague exactly what you see.
        </p>
        <Suspense fallback={<p>Loading…</p>}>
          <BatchExplorerClient />
        </Suspense>
      </main>
    </>
  );
}
