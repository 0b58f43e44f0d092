import * as z from 'zod/mini';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** These entries (their ids from the history), or all of them when none are named. */
const ReadSchema = z.strictObject({
  ids: z.optional(
    z.array(z.string().check(z.regex(/^\d{1,18}$/, 'must be an entry id from the history'))).check(z.maxLength(500)),
  ),
});

/** Marks the asker's own in-app alert entries read; answers the unread left (the bell's count). */
export const POST = route({ auth: true, body: ReadSchema }, async ({ actor, body }) =>
  Response.json({ unread: await settingsStore().alertLog.markRead(actor.organisation.id, actor.person.id, body.ids) }),
);

export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ POST });
