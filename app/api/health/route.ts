import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { serviceHealth } from '@/lib/server/batches/upstream-health';

/**
 * For load balancers and people on call; no session, no upstream call of its own: 200 while the app runs,
 * and whether the Batch Data Service answered recently (lib/server/batches/upstream-health.ts). Nothing of anyone's
 * activity: no time, status or count.
 */
export const GET = route({ auth: false }, async () => Response.json({ status: 'ok', service: serviceHealth() }));

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
