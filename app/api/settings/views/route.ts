import { type SavedView, type SavedViewList } from '@/lib/contract/views';
import { ViewCreateSchema } from '@/lib/contract/schemas';
import type { Actor } from '@/lib/server/auth/actor';
import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

const viewer = (actor: Actor) => ({ personId: actor.person.id, role: actor.role });

/** The views shared with the organisation and the asker's own, by name. */
export const GET = route({ auth: true }, async ({ actor }) =>
  Response.json({
    views: await settingsStore().views.list(actor.organisation.id, viewer(actor)),
  } satisfies SavedViewList),
);

/**
 * Names a view (201): the asker's own, or shared with the organisation (`shared`, `isDefault`: editors and
 * administrators); 409 when the name is taken or 100 views are kept already.
 */
export const POST = route({ auth: true, body: ViewCreateSchema }, async (ctx) => {
  const view = await settingsStore().views.create(ctx.actor.organisation.id, viewer(ctx.actor), ctx.body);
  await recordActivity(ctx, 'view_created', {
    subject: view.name,
    after: { name: view.name, query: view.query, shared: view.shared, isDefault: view.isDefault },
  });
  if (view.isDefault) await recordActivity(ctx, 'view_made_default', { subject: view.name });
  return Response.json(view satisfies SavedView, { status: 201 });
});

export const { HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ GET, POST });
