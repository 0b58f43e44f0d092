import type { Metadata } from 'next';
import { AccountSettings } from '@/components/account/account-settings';
import type { PageParams } from '@/lib/server/auth/page-actor';
import { serverTranslator } from '@/lib/server/http/reader-locale';
import { SignedInPage } from '../admin/signed-in-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('people'))('account.title') };
}

/** The signed-in person's own account and sessions. */
export default async function AccountPage({ searchParams }: { searchParams: Promise<PageParams> }) {
  const t = await serverTranslator('people');
  return (
    <SignedInPage
      page="account"
      params={await searchParams}
      needed="viewer"
      title={t('account.title')}
      intro={() => t('account.intro')}
    >
      {() => <AccountSettings />}
    </SignedInPage>
  );
}
