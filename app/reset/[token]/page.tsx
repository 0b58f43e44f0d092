import type { Metadata } from 'next';
import { LinkPage } from '@/app/invite/link-page';
import { serverTranslator } from '@/lib/server/http/reader-locale';

export async function generateMetadata(): Promise<Metadata> {
  // The token is in this page's address: it is never sent on as a referrer.
  return { title: (await serverTranslator('people'))('link.resetTitle'), referrer: 'no-referrer' };
}

/** A one-time reset link: the person sets a new password and is signed in. */
export default async function ResetPage({ params }: { params: Promise<{ token: string }> }) {
  return <LinkPage token={(await params).token} kind="reset" />;
}
