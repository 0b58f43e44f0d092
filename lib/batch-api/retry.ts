import { ServiceUnavailableError } from './errors';

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

/**
 * Why an attempt is worth another: the service said it is unavailable (503), asked us to slow down (429), a
 * gateway in front of it failed (502, 504), or the connection was refused, reset or cut short.
 */
export type TransientKind = 'unavailable' | 'rate-limited' | 'gateway' | 'connection';

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Delay before the next attempt, or undefined when the policy says stop. `failures` counts the attempts that
 * failed so far (a 429 is not a failure); Retry-After, when the service sent one, is waited as it is (capped),
 * whatever the kind: a gateway's or a rate limiter's short Retry-After is not stretched to 3-5 s.
 */
export function nextDelay(
  policy: RetryPolicy,
  failures: number,
  elapsedMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
  kind: TransientKind = 'unavailable',
): number | undefined {
  if (kind !== 'rate-limited' && failures >= policy.maxAttempts) return undefined;
  let delay: number;
  if (retryAfterMs !== undefined) delay = Math.min(retryAfterMs, policy.maxRetryAfterMs);
  else if (kind === 'unavailable') delay = policy.minDelayMs + random() * (policy.maxDelayMs - policy.minDelayMs);
  else {
    const ceiling = Math.min(policy.maxDelayMs, policy.backoffBaseMs * 2 ** Math.max(0, failures - 1));
    delay = ceiling / 2 + (random() * ceiling) / 2;
  }
  if (elapsedMs + delay > policy.deadlineMs) return undefined;
  return Math.round(delay);
}

/** Sleeps unless the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** An attempt failed in a way worth another (see TransientKind); `failure` is what the caller gets if none works. */
export class TransientFailure extends Error {
  constructor(
    readonly failure: ServiceUnavailableError,
    readonly kind: TransientKind,
    /** The service's own Retry-After, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(failure.message, { cause: failure });
  }
}

export type RetryOptions = {
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Told before each wait, so that a caller running many requests can back off. */
  onRetry?: (retry: { attempt: number; delayMs: number }) => void;
  /** Jitter source, injectable for deterministic tests. */
  random?: () => number;
  /** When the caller's work began (the deadline counts from there), if before the first attempt. */
  startedAt?: number;
};

/**
 * Runs `attempt` until it succeeds, fails for good, or the policy says stop: an attempt that throws a
 * TransientFailure is tried again after the policy's delay (or the service's Retry-After); any other error ends
 * the loop at once. The last transient failure is thrown as a ServiceUnavailableError saying how long we tried.
 */
export async function withRetries<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const started = options.startedAt ?? Date.now();
  let failures = 0;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof TransientFailure)) throw error;
      if (error.kind !== 'rate-limited') failures++;
      const elapsed = Date.now() - started;
      const delay = nextDelay(options.policy, failures, elapsed, error.retryAfterMs, options.random, error.kind);
      if (delay === undefined) {
        const { failure } = error;
        throw new ServiceUnavailableError(
          `${failure.message} (gave up after ${n} attempt${n === 1 ? '' : 's'} in ${elapsed} ms)`,
          failure.retryAfterS,
          { status: failure.status, kind: failure.kind, serviceDetail: failure.serviceDetail, cause: failure },
        );
      }
      options.onRetry?.({ attempt: n, delayMs: delay });
      await sleep(delay, options.signal);
    }
  }
}
