import type { ReactNode } from 'react';
import { AppHeader, type HeaderPage } from '@/components/auth/app-header';
import { QueryProvider } from '@/components/admin/query-provider';
import styles from '@/components/admin/admin.module.css';
import type { Actor } from '@/lib/server/auth/actor';
import { headerPerson, pageActor, type PageParams } from '@/lib/server/auth/page-actor';
import type { Role } from '@/lib/server/people/roles';

type Props = {
  page: Exclude<HeaderPage, 'batches'>;
  params: PageParams;
  needed: Role;
  title: string;
  intro: (actor: Actor) => string;
  children: (actor: Actor) => ReactNode;
};

/**
 * A signed-in page of the administration, the account or the alerts: the header, a title and a line about it, and its
 * content. Signed out: sign-in, back here after. Another organisation (`org=`) or a role too low: 403.
 */
export async function SignedInPage({ page, params, needed, title, intro, children }: Props) {
  const path = page === 'account' || page === 'alerts' ? `/${page}` : `/admin/${page}`;
  const actor = await pageActor(path, params, needed);
  const org = typeof params.org === 'string' && params.org ? params.org : null;
  return (
    <>
      <AppHeader person={await headerPerson(actor)} current={page} path={path} org={org} />
      <main className={styles.main}>
        <h1>{title}</h1>
        <p className={styles.intro}>{intro(actor)}</p>
        <QueryProvider>{children(actor)}</QueryProvider>
      </main>
    </>
  );
}
