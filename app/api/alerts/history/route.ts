import * as z from 'zod/mini';
import type { AlertHistory } from '@/lib/contract/alerts';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';
import { UUID } from '@/lib/server/settings/database';

const HistoryQuery = z.strictObject({
  /** Entries to answer, newest first (default 100). */
  limit: z.optional(
    z.coerce.number().check(z.int('must be a whole number'), z.minimum(1), z.maximum(500, 'at most 500')),
  ),
  /** One rule's entries. */
  rule: z.optional(z.string().check(z.regex(UUID, 'must be a rule id'))),
  /** `1`: only the asker's own in-app entries (the bell's list). */
  mine: z.optional(z.enum(['1', '0'])),
});

/** What fired, when, for which batches, to whom on which channel and whether it was delivered; the asker's unread count. */
export const GET = route({ auth: true, query: HistoryQuery }, async ({ actor, query }) =>
  Response.json(
    (await settingsStore().alertLog.history(actor.organisation.id, actor.person.id, {
      limit: query.limit ?? 100,
      ruleId: query.rule,
      mine: query.mine === '1',
    })) satisfies AlertHistory,
  ),
);

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
