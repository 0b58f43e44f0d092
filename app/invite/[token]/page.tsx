import type { Metadata } from 'next';
import { LinkPage } from '../link-page';
import { serverTranslator } from '@/lib/server/http/reader-locale';

export async function generateMetadata(): Promise<Metadata> {
  // The token is in this page's address: it is never sent on as a referrer.
  return { title: (await serverTranslator('people'))('link.inviteTitle'), referrer: 'no-referrer' };
}

/** A one-time invite link: the person sets their name and password and is signed in. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  return <LinkPage token={(await params).token} kind="invite" />;
}
