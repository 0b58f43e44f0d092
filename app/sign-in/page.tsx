import type { Metadata } from 'next';
import { SignInForm } from '@/components/sign-in-form';
import { DEMO_CREDENTIALS } from '@/lib/demo-credentials';
import { safeNextPath } from '@/lib/safe-next';
import { getConfig } from '@/lib/server/config';
import styles from './sign-in.module.css';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next } = await searchParams;
  const demo = getConfig().demo;
  return (
    <main className={styles.main}>
      <h1>Tray-scan batches</h1>
      <p className={styles.muted}>Sign in with the client credentials your organisation received from the Batch Data Service operator.</p>
      {demo && (
        <aside className={styles.demo} aria-label="Demo credentials">
          <strong>Demo:</strong> this app runs on the bundled sandbox, an emulator of the Batch Data Service with generated data.
          Use client ID <code>{DEMO_CREDENTIALS.clientId}</code> and client secret <code>{DEMO_CREDENTIALS.clientSecret}</code>.
        </aside>
      )}
      <SignInForm next={safeNextPath(typeof next === 'string' ? next : undefined)} />
    </main>
  );
}
