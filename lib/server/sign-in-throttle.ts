import 'server-only';
import { ApiError } from './api-error';
import { getConfig } from './config';

/** Keys kept at most; the oldest go first, so a flood of addresses cannot grow memory without bound. */
const MAX_KEYS = 10_000;

/** Counts events per key in fixed windows; `hit` says how long to wait once a key is over its limit. */
export class WindowCounter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under its limit. */
  waitS(key: string): number {
    const w = this.current(key);
    return w && w.count >= this.limit ? Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000)) : 0;
  }

  hit(key: string): void {
    const w = this.current(key);
    if (w) w.count++;
    else {
      if (this.windows.size >= MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
      this.windows.set(key, { start: this.now(), count: 1 });
    }
  }

  private current(key: string) {
    const w = this.windows.get(key);
    if (w && this.now() - w.start >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }
}

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
 * The client's address as the nearest proxy saw it: the last X-Forwarded-For entry. Next fills the header
 * from the socket only when it is absent, so without a proxy in front that sets or appends it, a client can
 * choose its own address here; the per-client-ID limit holds either way.
 */
export function clientIp(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() || 'unknown';
}

/**
 * Before a sign-in: every attempt counts against the address (SIGNIN_ATTEMPTS_PER_IP a minute); failed
 * attempts count against the client ID (SIGNIN_FAILURES_PER_CLIENT in 5 minutes), so guessing one
 * organisation's secret from many addresses is slow too, while its people can still sign in.
 */
export function admitSignIn(request: Request, clientId: string): void {
  const { ip, client } = counters();
  const address = clientIp(request);
  const wait = Math.max(ip.waitS(address), client.waitS(clientId));
  if (wait > 0) {
    throw new ApiError(429, `clientId: too many sign-in attempts; try again in ${wait} s`, { 'retry-after': String(wait) });
  }
  ip.hit(address);
}

export function noteFailedSignIn(clientId: string): void {
  counters().client.hit(clientId);
}
