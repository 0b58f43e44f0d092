import { type SavedView, type SavedViewList } from '@/lib/contract/views';
import { ViewCreateSchema } from '@/lib/contract/schemas';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { settingsStore } from '@/lib/server/settings';

/** The organisation's saved views, by name: everyone signed in to it sees the same list. */
export const GET = route({ auth: true }, async ({ session }) =>
  Response.json({ views: await settingsStore().views.list(session.clientId) } satisfies SavedViewList),
);

/** Names a view for the organisation (201); 409 when the name is taken or the organisation keeps 100 already. */
export const POST = route({ auth: true, body: ViewCreateSchema }, async ({ session, body }) =>
  Response.json((await settingsStore().views.create(session.clientId, body)) satisfies SavedView, { status: 201 }),
);

export const { HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ GET, POST });
