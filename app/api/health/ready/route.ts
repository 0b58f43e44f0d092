import { readiness } from '@/lib/server/health/readiness';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';

/**
 * Readiness for a load balancer: 200 only when this instance can serve signed-in people (lib/server/health/
 * readiness.ts), else 503 naming what is wrong; no session, no upstream call, nothing of anyone's activity.
 */
export const GET = route({ auth: false }, async () => {
  const { ready, checks } = await readiness();
  return Response.json({ status: ready ? 'ready' : 'unready', checks }, { status: ready ? 200 : 503 });
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
