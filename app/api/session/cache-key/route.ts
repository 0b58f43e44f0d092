import { cacheKeyFor } from '@/lib/server/batches/cache-key';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';

/**
 * The key of this session's browser cache of ranges (lib/explorer/range-cache.ts) for the organisation
 * it acts for: only a live session gets it, never stored by the browser or anything between (no-store, private).
 */
export const GET = route({ auth: true }, async ({ actor }) =>
  Response.json(cacheKeyFor({ sid: actor.session.id, organisationId: actor.organisation.id }), {
    headers: { 'cache-control': 'no-store, private' },
  }),
);

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
