'use client';

import { useTranslations } from 'use-intl';
import { AlertsBell } from '@/components/alerts/alerts-bell';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { SignOutButton } from '@/components/sign-out-button';
import type { Language } from '@/lib/i18n/languages';
import { withOrg } from '@/lib/org-param';
import styles from './app-header.module.css';
import { OrganisationSwitch, type OrganisationChoice } from './organisation-switch';
import type { PageRole } from './role-context';

/** The pages a header links to; `current` is marked as the page shown. */
export type HeaderPage = 'batches' | 'alerts' | 'people' | 'connection' | 'activity' | 'account';

/** What the header shows of who is signed in (plain data, from the page's actor). */
export type HeaderPerson = {
  name: string;
  email: string;
  role: PageRole;
  organisation: OrganisationChoice;
  organisations: OrganisationChoice[];
  language: { chosen: Language | ''; browser: Language };
};

const ADMIN_PAGES = ['people', 'connection', 'activity'] as const;

/**
 * Every signed-in page's header: the organisation (a switch among the person's), the pages they may open
 * (the administration pages for administrators only), their account, the alerts bell, the language and sign-out. Links carry
 * `org=` when the address names it, so the organisation stays the same from page to page.
 */
export function AppHeader({
  person,
  current,
  path,
  org,
}: {
  person: HeaderPerson;
  current: HeaderPage;
  path: string;
  org: string | null;
}) {
  const t = useTranslations('people');
  const brand = useTranslations('common');
  const link = (page: HeaderPage, href: string, label: string) => (
    <a
      key={page}
      href={withOrg(href, org)}
      aria-current={page === current ? 'page' : undefined}
      className={styles.link}
    >
      {label}
    </a>
  );
  return (
    <header className={`${styles.header} screen-only`}>
      <a className={styles.brand} href={withOrg('/batches', org)}>
        {brand('brand')}
      </a>
      {person.organisations.length > 1 ? (
        <OrganisationSwitch current={person.organisation.slug} path={path} organisations={person.organisations} />
      ) : (
        <strong className={styles.org}>{person.organisation.name}</strong>
      )}
      <nav aria-label={t('header.pages')} className={styles.nav}>
        {link('batches', '/batches', t('header.batches'))}
        {link('alerts', '/alerts', t('header.alerts'))}
        {person.role === 'admin' && ADMIN_PAGES.map((page) => link(page, `/admin/${page}`, t(`header.${page}`)))}
        <a
          href={withOrg('/account', org)}
          aria-current={current === 'account' ? 'page' : undefined}
          aria-label={t('header.accountOf', { name: person.name || person.email, role: t(`roles.${person.role}`) })}
          title={person.email}
          className={`${styles.link} ${styles.person}`}
        >
          {person.name || person.email} <span className={styles.role}>({t(`roles.${person.role}`)})</span>
        </a>
      </nav>
      {/* Together, at the right: on a narrow screen (or a full header) they wrap as one, never apart. */}
      <div className={styles.tools}>
        <AlertsBell org={org} />
        <LanguageSwitch {...person.language} />
        <SignOutButton />
      </div>
    </header>
  );
}
