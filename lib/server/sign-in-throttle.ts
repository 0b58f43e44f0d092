import 'server-only';
import { AppError } from './app-error';
import { clientAddress } from './client-address';
import { getConfig } from './config';
import { WindowCounter } from './window-counter';

const holder = globalThis as unknown as { __signInThrottle?: { ip: WindowCounter; client: WindowCounter } };

function counters() {
  const c = getConfig();
  holder.__signInThrottle ??= {
    ip: new WindowCounter(c.signInPerIp, 60_000),
    client: new WindowCounter(c.signInFailuresPerClient, 300_000),
  };
  return holder.__signInThrottle;
}

/**
 * Before a sign-in: every attempt counts against the address (SIGNIN_ATTEMPTS_PER_IP a minute); failed
 * attempts count against the client ID (SIGNIN_FAILURES_PER_CLIENT in 5 minutes), so guessing one
 * organisation's secret from many addresses is slow too, while its people can still sign in.
 */
export function admitSignIn(request: Request, clientId: string): void {
  const { ip, client } = counters();
  const address = clientAddress(request, getConfig().trustedProxyHops);
  const wait = Math.max(ip.waitS(address), client.waitS(clientId));
  if (wait > 0) {
    throw new AppError('too_many_attempts', `too many sign-in attempts; try again in ${wait} s`, { field: 'clientId', retryAfterS: wait });
  }
  ip.hit(address);
}

export function noteFailedSignIn(clientId: string): void {
  counters().client.hit(clientId);
}
