import type { Metadata } from 'next';
import { AlertsPage } from '@/components/alerts/alerts-page';
import type { PageParams } from '@/lib/server/auth/page-actor';
import { serverTranslator } from '@/lib/server/http/reader-locale';
import { SignedInPage } from '../admin/signed-in-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('alerts'))('page.title') };
}

/** The organisation's alert rules, each person's own choice of them, and what was sent. */
export default async function Alerts({ searchParams }: { searchParams: Promise<PageParams> }) {
  const t = await serverTranslator('alerts');
  return (
    <SignedInPage
      page="alerts"
      params={await searchParams}
      needed="viewer"
      title={t('page.title')}
      intro={(a) => t('page.intro', { org: a.organisation.name })}
    >
      {(actor) => <AlertsPage role={actor.role} me={actor.person.email} />}
    </SignedInPage>
  );
}
