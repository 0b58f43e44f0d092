import { sleep } from '../async/sleep';
import { ServiceUnavailableError, type TransientKind } from './errors';

/** How the client retries safe requests (docs/batch-data-service.md#retries). */
export type RetryPolicy = {
  /** Attempts in all, the first included, counting failures (503, 502, 504, dropped connections); a 429 asks us
   * to slow down and is bounded by the deadline only. */
  maxAttempts: number;
  /** A 503 without Retry-After waits a random time in [minDelayMs, maxDelayMs] (the service recommends 3 to 5 s). */
  minDelayMs: number;
  maxDelayMs: number;
  /** Other transient answers without Retry-After wait a jittered, doubling delay from here, at most maxDelayMs. */
  backoffBaseMs: number;
  /** Longest Retry-After we agree to wait. */
  maxRetryAfterMs: number;
  /** No retry starts once this much time has passed since the call began. */
  deadlineMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  minDelayMs: 3000,
  maxDelayMs: 5000,
  backoffBaseMs: 500,
  maxRetryAfterMs: 30_000,
  deadlineMs: 30_000,
};

export type { TransientKind };

/** The HTTP date a server sends (IMF-fixdate, RFC 9110 5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3); anything else (`1.5`, `-1`, a
 * word) is no advice at all. Date.parse alone would read `2` as a date in 2001, and so as "now".
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!IMF_FIXDATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Retry-After is waited as it is, plus up to this share, so that requests told alike do not return in step. */
const RETRY_AFTER_JITTER = 0.2;

/**
 * Delay before the next attempt, or undefined when the policy says stop. `count` is how many times this kind
 * of failure happened in this call so far: failures (503, gateway, connection) end at `maxAttempts`; 429s are
 * not failures and end only at the deadline.
 *
 * - A 503 without Retry-After waits 3-5 s, as the service recommends.
 * - Anything else waits a jittered, doubling backoff from `backoffBaseMs`, counted per kind.
 * - Retry-After, when the service sent one, is waited as it is (capped, plus up to 20 %), and never less than
 *   that backoff: a short one is not stretched to 3-5 s, and "0" does not make a request spin.
 */
export function nextDelay(
  policy: RetryPolicy,
  count: number,
  elapsedMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
  kind: TransientKind = 'unavailable',
): number | undefined {
  if (kind !== 'rate-limited' && count >= policy.maxAttempts) return undefined;
  let delay: number;
  if (kind === 'unavailable' && retryAfterMs === undefined) {
    delay = policy.minDelayMs + random() * (policy.maxDelayMs - policy.minDelayMs);
  } else {
    const ceiling = Math.min(policy.maxDelayMs, policy.backoffBaseMs * 2 ** Math.max(0, count - 1));
    delay = ceiling / 2 + (random() * ceiling) / 2;
    if (retryAfterMs !== undefined) {
      delay = Math.max(delay, Math.min(retryAfterMs, policy.maxRetryAfterMs) * (1 + RETRY_AFTER_JITTER * random()));
    }
  }
  if (elapsedMs + delay > policy.deadlineMs) return undefined;
  return Math.round(delay);
}

/**
 * An attempt failed in a way worth another; `failure` is what the caller gets if none works, and says which
 * kind of failure it was (see TransientKind) and the service's own Retry-After, when it sent one.
 */
export class TransientFailure extends Error {
  constructor(readonly failure: ServiceUnavailableError) {
    super(failure.message, { cause: failure });
  }

  get kind(): TransientKind {
    return this.failure.kind;
  }

  get retryAfterMs(): number | undefined {
    return this.failure.retryAfterMs;
  }
}

export type RetryOptions = {
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Told before each wait, so that a caller running many requests can back off; `kind`: why the attempt failed. */
  onRetry?: (retry: { attempt: number; delayMs: number; kind: TransientKind }) => void;
  /** Jitter source, injectable for deterministic tests. */
  random?: () => number;
  /** Time spent on the call so far, for the deadline (by default since withRetries began). */
  elapsed?: () => number;
};

/**
 * Runs `attempt` until it succeeds, fails for good, or the policy says stop: an attempt that throws a
 * TransientFailure is tried again after the policy's delay (or the service's Retry-After); any other error ends
 * the loop at once. The last transient failure is thrown as a ServiceUnavailableError saying how long we tried.
 */
export async function withRetries<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const started = Date.now();
  const elapsedOf = options.elapsed ?? (() => Date.now() - started);
  let failures = 0;
  let limited = 0;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof TransientFailure)) throw error;
      const count = error.kind === 'rate-limited' ? ++limited : ++failures;
      const elapsed = Math.round(elapsedOf());
      const delay = nextDelay(options.policy, count, elapsed, error.retryAfterMs, options.random, error.kind);
      if (delay === undefined) {
        const { failure } = error;
        throw new ServiceUnavailableError(
          `${failure.message} (gave up after ${n} attempt${n === 1 ? '' : 's'} in ${elapsed} ms)`,
          failure.retryAfterS,
          {
            status: failure.status,
            kind: failure.kind,
            retryAfterMs: failure.retryAfterMs,
            serviceDetail: failure.serviceDetail,
            cause: failure,
          },
        );
      }
      options.onRetry?.({ attempt: n, delayMs: delay, kind: error.kind });
      await sleep(delay, options.signal);
    }
  }
}
