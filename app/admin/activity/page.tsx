import type { Metadata } from 'next';
import { ActivityAdmin } from '@/components/admin/activity-admin';
import type { PageParams } from '@/lib/server/auth/page-actor';
import { serverTranslator } from '@/lib/server/http/reader-locale';
import { SignedInPage } from '../signed-in-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('people'))('activity.title') };
}

/** The organisation's activity log, for its administrators. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<PageParams> }) {
  const t = await serverTranslator('people');
  return (
    <SignedInPage
      page="activity"
      params={await searchParams}
      needed="admin"
      title={t('activity.title')}
      intro={(a) => t('activity.intro', { org: a.organisation.name })}
    >
      {() => <ActivityAdmin />}
    </SignedInPage>
  );
}
