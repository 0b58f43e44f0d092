import { route } from '@/lib/server/route';
import { lastUpstreamCall } from '@/lib/server/upstream-health';

/**
 * For load balancers and people on call; no session needed and nothing secret in it: 200 while the app
 * runs, and whether the Batch Data Service answered the app's last call to it (null before any call).
 */
export const GET = route({ auth: false }, async () => {
  const last = lastUpstreamCall();
  return Response.json({
    status: 'ok',
    upstream: last === null ? { answered: null, lastCallAt: null, lastStatus: null } : { answered: last.answered, lastCallAt: last.at, lastStatus: last.status, lastDurationMs: last.durationMs },
  });
});
