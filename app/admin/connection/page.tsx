import type { Metadata } from 'next';
import { ConnectionAdmin } from '@/components/admin/connection-admin';
import type { PageParams } from '@/lib/server/auth/page-actor';
import { serverTranslator } from '@/lib/server/http/reader-locale';
import { SignedInPage } from '../signed-in-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('people'))('connection.title') };
}

/** The organisation's connection to the Batch Data Service, for its administrators. */
export default async function ConnectionPage({ searchParams }: { searchParams: Promise<PageParams> }) {
  const t = await serverTranslator('people');
  return (
    <SignedInPage
      page="connection"
      params={await searchParams}
      needed="admin"
      title={t('connection.title')}
      intro={(a) => t('connection.intro', { org: a.organisation.name })}
    >
      {() => <ConnectionAdmin />}
    </SignedInPage>
  );
}
