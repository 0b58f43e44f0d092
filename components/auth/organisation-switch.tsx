'use client';

import { useTranslations } from 'use-intl';

export type OrganisationChoice = { slug: string; name: string };

/**
 * The organisation the page shows, among the person's: choosing another opens the same page for it (`org=` in
 * the address, so a link names it too), with nothing else of this page's state: another organisation's view
 * starts bare (its default view, on /batches).
 */
export function OrganisationSwitch({
  current,
  organisations,
  path,
}: {
  current: string;
  organisations: OrganisationChoice[];
  path: string;
}) {
  const t = useTranslations('people.header');
  return (
    <label className="language-switch">
      <span>{t('organisation')}</span>
      <select
        value={current}
        onChange={(event) => {
          const slug = event.target.value;
          // Remembered as where this person starts next time (no `org=` in the address); the page opens either way.
          void fetch(`/api/account?org=${encodeURIComponent(slug)}`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ defaultOrganisation: slug }),
            keepalive: true,
          }).catch(() => undefined);
          // A full page load: nothing of the other organisation's page stays in memory.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          window.location.assign(`${path}?org=${encodeURIComponent(slug)}`);
        }}
      >
        {organisations.map((o) => (
          <option key={o.slug} value={o.slug}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
