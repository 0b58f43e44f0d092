import type { AlertRule, AlertRuleList } from '@/lib/contract/alerts';
import { loggedRule } from '@/lib/server/alerts/activity';
import { AlertRuleCreateSchema } from '@/lib/server/alerts/api-schemas';
import type { Actor } from '@/lib/server/auth/actor';
import { recordActivity } from '@/lib/server/audit/record';
import { getConfig } from '@/lib/server/config';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

const asker = (actor: Actor) => ({ personId: actor.person.id, role: actor.role });

/** The organisation's alert rules, by name, each with the asker's own subscription. */
export const GET = route({ auth: true }, async ({ actor }) =>
  Response.json({
    rules: await settingsStore().alerts.list(actor.organisation.id, asker(actor)),
  } satisfies AlertRuleList),
);

/** A new rule (201): editors and administrators; 422 naming the field, 409 when the name is taken. */
export const POST = route(
  { auth: 'editor', what: 'creating alert rules', body: AlertRuleCreateSchema, maxBodyBytes: 32 * 1024 },
  async (ctx) => {
    const rule = await settingsStore().alerts.create(ctx.actor.organisation.id, asker(ctx.actor), ctx.body, {
      allowPrivate: getConfig().alerts.allowPrivateWebhooks,
    });
    await recordActivity(ctx, 'alert_created', { subject: rule.name, after: loggedRule(rule) });
    return Response.json(rule satisfies AlertRule, { status: 201 });
  },
);

export const { HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ GET, POST });
