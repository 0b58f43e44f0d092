import 'server-only';
import { recordEntry } from '../../audit/record';
import { clientAddress } from '../../http/client-address';
import { getConfig } from '../../config';
import { onlyOrganisation, upsertSsoPerson } from '../../people/sso';
import { settingsStore } from '../../settings';
import { startSession } from '../start-session';
import type { OidcSettings } from './settings';
import type { SsoPeople } from './sign-in';

/** People, sessions and the activity log for single sign-on: the same ones the password sign-in uses. */
export function ssoPeople(settings: OidcSettings): SsoPeople {
  const store = settingsStore();
  return {
    find: (email) => store.people.byEmail(email),
    upsert: async (input) => ({ id: (await upsertSsoPerson(input)).personId }),
    startSession: async (input) => void (await startSession(input)),
    /**
     * A known person's refusal is theirs (their organisations' administrators see it, as for a wrong password);
     * anyone else's goes to the organisation single sign-on lets people join, so its administrators see who
     * was turned away.
     */
    recordRefusal: async ({ request, reason, email, name }) => {
      const person = email ? await store.people.byEmail(email) : null;
      const joining = person
        ? null
        : settings.organisation
          ? await store.organisations.bySlug(settings.organisation)
          : await onlyOrganisation();
      await recordEntry({
        organisationId: joining?.id ?? null,
        actor: person
          ? { id: person.id, email: person.email, name: person.name }
          : { id: null, email: email ?? '', name: name ?? '' },
        action: 'sign_in',
        subject: person?.email ?? email ?? '',
        after: { method: 'oidc', result: 'refused', reason },
        address: clientAddress(request, getConfig().trustedProxyHops),
        method: 'oidc',
      });
    },
  };
}
