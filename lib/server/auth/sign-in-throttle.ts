import 'server-only';
import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../http/app-error';
import { getConfig } from '../config';
import { signInLimiter } from '../stores/shared-stores';

/** An address's failures count for a day; over its budget, it waits for the day's window to end. */
const ADDRESS_WINDOW_S = 24 * 3600;
/**
 * Failures in a row for one e-mail from one address count for 14 days (a success clears them); over the limit,
 * that pair waits an hour. (The recipe's 90 days is past what a Node timer holds, about 24.8 days: the memory
 * limiter's timer would fire at once and forget the count.)
 */
const ACCOUNT_WINDOW_S = 14 * 24 * 3600;
const ACCOUNT_BLOCK_S = 3600;

export type ThrottleParts = {
  /** Every attempt, per client address (SIGNIN_ATTEMPTS_PER_IP a minute). */
  attempts: RateLimiterAbstract;
  /** Failed sign-ins per client address a day, whoever they were for (SIGNIN_FAILURES_PER_IP). */
  failuresByAddress: RateLimiterAbstract;
  /** Failed sign-ins in a row per e-mail address and client address (SIGNIN_FAILURES_PER_ACCOUNT). */
  failuresByAccount: RateLimiterAbstract;
};

/** The e-mail address as a limiter key: lower-case, and hashed, so that no address is kept in clear in Redis. */
const accountKey = (email: string, address: string) =>
  `${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 24)}_${address}`;

/**
 * rate-limiter-flexible's login recipe. Failures count twice: per e-mail address **and** client address in a
 * row (a success clears them), and per client address a day whoever they were for. So a flood of wrong
 * passwords for one person from many addresses slows each of those addresses but never locks the person
 * out from their own; and one office address's few failures for one colleague leave the other colleagues'
 * sign-ins alone (the address's daily budget is far larger). A failure is counted before the password is
 * checked and given back when it was right, so concurrent guesses cannot outrun the count.
 */
export class SignInThrottle {
  constructor(private readonly parts: ThrottleParts) {}

  /**
   * Runs `verify` (true when the password is right, false when not; it throws when the store fails) within
   * the limits, and counts its outcome. Throws `too_many_attempts` instead.
   */
  async guard(address: string, email: string, verify: () => Promise<boolean>): Promise<boolean> {
    const { attempts, failuresByAddress, failuresByAccount } = this.parts;
    const account = accountKey(email, address);
    await consume(attempts, address, 'too many sign-in attempts from this address');
    const byAddress = [failuresByAddress, address, 'too many failed sign-ins from this address today'] as const;
    const byAccount = [
      failuresByAccount,
      account,
      'too many failed sign-ins for this e-mail address from here',
      'email',
    ] as const;
    // Refused while either is blocked, before counting anything: a blocked pair's attempts do not spend the address's budget.
    await Promise.all([refuseIfBlocked(...byAddress), refuseIfBlocked(...byAccount)]);
    // The pair first: the attempt that trips its block spends nothing of the address's budget either.
    await consume(...byAccount);
    await consume(...byAddress).catch(async (error: unknown) => {
      await failuresByAccount.reward(account).catch(() => undefined);
      throw error;
    });
    let right: boolean | undefined;
    try {
      right = await verify();
      return right;
    } finally {
      // Only a wrong password is a failure: a right one clears the run of failures, a store that failed counts nothing.
      if (right !== false) {
        const forgiven = right ? failuresByAccount.delete(account) : failuresByAccount.reward(account);
        await Promise.all([forgiven, failuresByAddress.reward(address)]).catch(() => undefined);
      }
    }
  }
}

/** `too_many_attempts` with the wait when the key is over its limit already (blocked). */
async function refuseIfBlocked(limiter: RateLimiterAbstract, key: string, what: string, field?: string): Promise<void> {
  const res = await limiter.get(key);
  if (res && res.consumedPoints > limiter.points) throw tooMany(res, what, field);
}

const tooMany = (res: RateLimiterRes, what: string, field?: string) => {
  const retryAfterS = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError('too_many_attempts', `${what}; try again in ${waitText(retryAfterS)}`, { retryAfterS, field });
};

/** Takes a point; over the limit (or blocked), `too_many_attempts` with the wait. */
async function consume(
  limiter: RateLimiterAbstract,
  key: string,
  what: string,
  field?: string,
): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw tooMany(rejection, what, field);
  }
}

const waitText = (s: number) =>
  s < 120 ? `${s} s` : s < 7200 ? `${Math.ceil(s / 60)} min` : `${Math.ceil(s / 3600)} h`;

/** The throttle of one instance, with the limits of the configuration, in Redis when REDIS_URL is set. */
export function createSignInThrottle(): SignInThrottle {
  const c = getConfig();
  return new SignInThrottle({
    attempts: signInLimiter({ keyPrefix: 'signin-attempts', points: c.signInPerIp, duration: 60 }),
    failuresByAddress: signInLimiter({
      keyPrefix: 'signin-fail-ip',
      points: c.signInFailuresPerIp,
      duration: ADDRESS_WINDOW_S,
      blockDuration: ADDRESS_WINDOW_S,
    }),
    failuresByAccount: signInLimiter({
      keyPrefix: 'signin-fail-account',
      points: c.signInFailuresPerAccount,
      duration: ACCOUNT_WINDOW_S,
      blockDuration: ACCOUNT_BLOCK_S,
    }),
  });
}

const holder = globalThis as unknown as { __signInGuard?: SignInThrottle };

/** A sign-in attempt for `email` from this request's client address, throttled. */
export function guardSignIn(address: string, email: string, verify: () => Promise<boolean>): Promise<boolean> {
  holder.__signInGuard ??= createSignInThrottle();
  return holder.__signInGuard.guard(address, email, verify);
}
