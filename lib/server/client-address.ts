import 'server-only';

/**
 * The client's address as the nearest proxy saw it: the last X-Forwarded-For entry. Next fills the header
 * from the socket only when it is absent, so without a proxy in front that sets or appends it, a client can
 * choose its own address here; the per-client-ID limit holds either way.
 */
export function clientIp(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() || 'unknown';
}
