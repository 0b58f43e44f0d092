import { type SavedView } from '@/lib/contract/views';
import { ViewChangeSchema } from '@/lib/contract/schemas';
import { recordActivity, type ActivitySource } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

const viewer = (source: ActivitySource) => ({ personId: source.actor.person.id, role: source.actor.role });

/** What changed, in the activity log's words: a rename, shared or taken back, made the default. */
async function logChange(source: ActivitySource, before: SavedView, after: SavedView) {
  if (before.name !== after.name)
    await recordActivity(source, 'view_renamed', {
      subject: after.name,
      before: { name: before.name },
      after: { name: after.name },
    });
  if (!before.shared && after.shared) await recordActivity(source, 'view_shared', { subject: after.name });
  if (before.shared && !after.shared) await recordActivity(source, 'view_unshared', { subject: after.name });
  if (!before.isDefault && after.isDefault) await recordActivity(source, 'view_made_default', { subject: after.name });
}

/**
 * Renames the view, shares it or takes it back, makes it the default (or not); 404 for a view the asker does
 * not see; 403 naming the role for what needs an editor.
 */
export const PATCH = route({ auth: true, body: ViewChangeSchema }, async (ctx) => {
  const { view, before } = await settingsStore().views.change(
    ctx.actor.organisation.id,
    viewer(ctx),
    pathSegment(ctx.request, -1),
    ctx.body,
  );
  await logChange(ctx, before, view);
  return Response.json(view satisfies SavedView);
});

export const DELETE = route({ auth: true }, async (ctx) => {
  const view = await settingsStore().views.delete(ctx.actor.organisation.id, viewer(ctx), pathSegment(ctx.request, -1));
  await recordActivity(ctx, 'view_deleted', {
    subject: view.name,
    before: { name: view.name, query: view.query, shared: view.shared, isDefault: view.isDefault },
  });
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, OPTIONS, POST, PUT } = otherMethods({ PATCH, DELETE });
