import type { AlertRule } from '@/lib/contract/alerts';
import { SubscriptionSchema } from '@/lib/server/alerts/api-schemas';
import { pathSegment } from '@/lib/server/input/path-segment';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** The asker's own choice for a rule (viewers too): `subscribed`, `muted`, or `none`; answers the rule. */
export const PUT = route({ auth: true, body: SubscriptionSchema }, async ({ actor, request, body }) =>
  Response.json(
    (await settingsStore().alerts.subscribe(
      actor.organisation.id,
      { personId: actor.person.id, role: actor.role },
      pathSegment(request, -2),
      body.state,
    )) satisfies AlertRule,
  ),
);

export const { GET, HEAD, OPTIONS, POST, PATCH, DELETE } = otherMethods({ PUT });
