import { type SavedView } from '@/lib/contract/views';
import { ViewChangeSchema } from '@/lib/contract/schemas';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { settingsStore } from '@/lib/server/settings';

/**
 * The view's ID from the path. Read here rather than from Next's params: the wrapper takes a plain Request, as
 * tests call it. A segment that does not decode is no ID of ours, and the store answers 404 for it.
 */
function viewId(request: Request): string {
  const segment = new URL(request.url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Renames the view and/or makes it the default (or not); 404 for a view this organisation does not have. */
export const PATCH = route({ auth: true, body: ViewChangeSchema }, async ({ session, body, request }) =>
  Response.json((await settingsStore().views.change(session.clientId, viewId(request), body)) satisfies SavedView),
);

export const DELETE = route({ auth: true }, async ({ session, request }) => {
  await settingsStore().views.delete(session.clientId, viewId(request));
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, OPTIONS, POST, PUT } = otherMethods({ PATCH, DELETE });
