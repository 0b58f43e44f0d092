import type { AlertRule } from '@/lib/contract/alerts';
import { loggedRule } from '@/lib/server/alerts/activity';
import { AlertRuleChangeSchema } from '@/lib/server/alerts/api-schemas';
import { OVERLAP_MS } from '@/lib/server/alerts/watcher';
import { recordActivity } from '@/lib/server/audit/record';
import { getConfig } from '@/lib/server/config';
import { pathSegment } from '@/lib/server/input/path-segment';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** One rule, with the asker's own subscription; 404 for another organisation's. */
export const GET = route({ auth: true }, async ({ actor, request }) =>
  Response.json(
    (await settingsStore().alerts.get(
      actor.organisation.id,
      { personId: actor.person.id, role: actor.role },
      pathSegment(request, -1),
    )) satisfies AlertRule,
  ),
);

/** Changes a rule (any field but `when`): editors and administrators. */
export const PATCH = route(
  { auth: 'editor', what: 'changing alert rules', body: AlertRuleChangeSchema, maxBodyBytes: 32 * 1024 },
  async (ctx) => {
    const { actor } = ctx;
    const { before, after } = await settingsStore().alerts.change(
      actor.organisation.id,
      { personId: actor.person.id, role: actor.role },
      pathSegment(ctx.request, -1),
      ctx.body,
      { allowPrivate: getConfig().alerts.allowPrivateWebhooks },
    );
    if (before.paused && !after.paused)
      await settingsStore().alertLog.resumeWatch(actor.organisation.id, after.id, OVERLAP_MS);
    await recordActivity(ctx, 'alert_changed', {
      subject: after.name,
      before: loggedRule(before),
      after: loggedRule(after),
    });
    return Response.json(after satisfies AlertRule);
  },
);

/** Deletes a rule (204); what it sent stays in the history. */
export const DELETE = route({ auth: 'editor', what: 'deleting alert rules' }, async (ctx) => {
  const { actor } = ctx;
  const rule = await settingsStore().alerts.delete(
    actor.organisation.id,
    { personId: actor.person.id, role: actor.role },
    pathSegment(ctx.request, -1),
  );
  await recordActivity(ctx, 'alert_deleted', { subject: rule.name, before: loggedRule(rule) });
  return new Response(null, { status: 204 });
});

export const { HEAD, OPTIONS, POST, PUT } = otherMethods({ GET, PATCH, DELETE });
