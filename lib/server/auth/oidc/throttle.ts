import 'server-only';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { clientAddress } from '../../http/client-address';
import { getConfig } from '../../config';
import { signInLimiter } from '../../stores/shared-stores';

const holder = globalThis as unknown as { __ssoCallbacks?: RateLimiterAbstract };

/**
 * Whether this address may finish another single sign-on now: SIGNIN_ATTEMPTS_PER_IP callbacks a minute, as for
 * password sign-ins (shared by the instances with REDIS_URL). Anyone can open the callback URL, and each one
 * costs a call to the provider and an entry in the activity log; a person needs one per sign-in.
 */
export async function callbackAllowed(request: Request): Promise<boolean> {
  holder.__ssoCallbacks ??= signInLimiter({
    keyPrefix: 'sso-callbacks',
    points: getConfig().signInPerIp,
    duration: 60,
  });
  try {
    await holder.__ssoCallbacks.consume(clientAddress(request, getConfig().trustedProxyHops));
    return true;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return false;
    throw rejection;
  }
}
