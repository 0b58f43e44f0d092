import type { Metadata } from 'next';
import { PeopleAdmin } from '@/components/admin/people-admin';
import type { PageParams } from '@/lib/server/auth/page-actor';
import { serverTranslator } from '@/lib/server/http/reader-locale';
import { SignedInPage } from '../signed-in-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await serverTranslator('people'))('admin.peopleTitlePage') };
}

/** The organisation's people, for its administrators. */
export default async function PeoplePage({ searchParams }: { searchParams: Promise<PageParams> }) {
  const t = await serverTranslator('people');
  return (
    <SignedInPage
      page="people"
      params={await searchParams}
      needed="admin"
      title={t('admin.peopleTitlePage')}
      intro={(a) => t('admin.peopleIntro', { org: a.organisation.name })}
    >
      {(actor) => <PeopleAdmin me={actor.person.email} />}
    </SignedInPage>
  );
}
