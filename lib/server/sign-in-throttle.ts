import 'server-only';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { sleep } from '../async/sleep';
import { AppError } from './app-error';
import { clientAddress } from './client-address';
import { ClientQueue } from './client-queue';
import { getConfig } from './config';
import { signInLimiter, verifiedSignIns } from './shared-stores';
import type { Credentials, VerifiedSignIns } from './verified-sign-ins';

/** An address's failures count for 15 minutes; one over its allowance refuses it for 15 minutes. */
const FAILURE_WINDOW_S = 15 * 60;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/**
 * The wait before a sign-in's upstream call, given the failures its address already has in the window
 * (guesses still in flight included): none for the first half of the allowance, so a person who mistypes
 * a few times is not held up, then 0.5 s doubling up to 8 s.
 */
export function failureDelayMs(failures: number, allowance: number): number {
  const free = Math.ceil(allowance / 2);
  return failures < free ? 0 : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - free));
}

export type ThrottleParts = {
  /** Every attempt, per client address (SIGNIN_ATTEMPTS_PER_IP a minute). */
  attempts: RateLimiterAbstract;
  /** Refused credentials, per client address (SIGNIN_FAILURES_PER_IP in 15 minutes, then 15 minutes blocked). */
  failures: RateLimiterAbstract;
  /** Upstream auth calls per client ID (SIGNIN_AUTH_CALLS_PER_CLIENT a second) with a short queue. */
  queue: ClientQueue;
  /** The priority lane past the queue for credentials verified lately. */
  verified: VerifiedSignIns;
  sleep?: (ms: number) => Promise<void>;
};

/**
 * What holds sign-in attempts back. Everything that refuses is keyed by the client address, except the
 * per-client-ID rate, which only makes callers wait their turn (and refuses, for a second or two, only when
 * its short queue is full) and which lately verified credentials skip. So failures from other addresses
 * never refuse the right secret, and guessing one client ID from many addresses goes no faster than the
 * per-client-ID rate.
 */
export class SignInThrottle {
  constructor(private readonly parts: ThrottleParts) {}

  /**
   * Runs `verify` (one auth call: true when the credentials are accepted, false when refused; it throws
   * when the service fails) within the limits, and counts its outcome. Throws `too_many_attempts` instead.
   */
  async guard(address: string, credentials: Credentials, verify: () => Promise<boolean>): Promise<boolean> {
    const { attempts, failures, queue, verified, sleep: wait = sleep } = this.parts;
    await consume(attempts, address, 'too many sign-in attempts from this address');
    // A failure is counted before the call and given back unless the credentials are refused: concurrent
    // guesses from one address cannot outrun the count, and each waits as the failures before it (in flight
    // included) ask.
    const reserved = await consume(failures, address, 'too many failed sign-ins from this address');
    const reservedAt = Date.now();
    let refused = false;
    try {
      await wait(failureDelayMs(reserved.consumedPoints - 1, failures.points));
      if (!(await verified.has(credentials))) await queue.take(credentials.clientId);
      const accepted = await verify();
      refused = !accepted;
      if (accepted) await verified.add(credentials);
      return accepted;
    } finally {
      // Given back only into the window it was taken from: after that window (a long wait and a slow auth
      // call), a reward would open a new one below zero, an allowance of extra failures.
      if (!refused && Date.now() - reservedAt < reserved.msBeforeNext) await failures.reward(address).catch(() => undefined);
    }
  }
}

async function consume(limiter: RateLimiterAbstract, key: string, what: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfterS = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new AppError('too_many_attempts', `${what}; try again in ${retryAfterS} s`, { retryAfterS });
  }
}

/** The throttle of one instance, with the limits of the configuration, in Redis when REDIS_URL is set. */
export function createSignInThrottle(sleep?: ThrottleParts['sleep']): SignInThrottle {
  const c = getConfig();
  return new SignInThrottle({
    attempts: signInLimiter({ keyPrefix: 'signin-attempts', points: c.signInPerIp, duration: 60 }),
    failures: signInLimiter({ keyPrefix: 'signin-failures', points: c.signInFailuresPerIp, duration: FAILURE_WINDOW_S, blockDuration: FAILURE_WINDOW_S }),
    queue: new ClientQueue(signInLimiter({ keyPrefix: 'signin-auth', points: c.signInAuthCallsPerClient, duration: 1 })),
    verified: verifiedSignIns(),
    sleep,
  });
}

const holder = globalThis as unknown as { __signInGuard?: SignInThrottle };

/** A sign-in attempt from this request's client address (lib/server/client-address.ts), throttled. */
export function guardSignIn(request: Request, credentials: Credentials, verify: () => Promise<boolean>): Promise<boolean> {
  holder.__signInGuard ??= createSignInThrottle();
  return holder.__signInGuard.guard(clientAddress(request, getConfig().trustedProxyHops), credentials, verify);
}
