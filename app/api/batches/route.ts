import { PageQuerySchema } from '@/lib/server/batches/batch-query';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { upstreamFor } from '@/lib/server/org/upstream';

/** One upstream page per call; batches exactly as the service sent them. */
export const GET = route({ auth: true, query: PageQuerySchema }, async ({ query, actor, request }) => {
  const { cursor, ...range } = query;
  const page = await (await upstreamFor(actor.organisation)).page(range, cursor ?? null, { signal: request.signal });
  return Response.json({ data: page.data, nextCursor: page.next_token });
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
