import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';

/** Liveness for a load balancer or a supervisor: the process serves HTTP. Nothing else is checked. */
export const GET = route({ auth: false }, async () => Response.json({ status: 'live' }));

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
