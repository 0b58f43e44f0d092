import { ServiceUnavailableError } from './errors';

/** How the client retries safe requests (docs/batch-data-service.md#retries). */
export type RetryPolicy = {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Without Retry-After, wait a random time in [minDelayMs, maxDelayMs] (the service recommends 3 to 5 s). */
  minDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After we agree to wait. */
  maxRetryAfterMs: number;
  /** No retry starts once this much time has passed since the first attempt. */
  deadlineMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  minDelayMs: 3000,
  maxDelayMs: 5000,
  maxRetryAfterMs: 30_000,
  deadlineMs: 30_000,
};

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Delay before the next attempt, or undefined when the policy says stop. */
export function nextDelay(
  policy: RetryPolicy,
  attempt: number,
  elapsedMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const delay =
    retryAfterMs !== undefined
      ? Math.min(retryAfterMs, policy.maxRetryAfterMs)
      : policy.minDelayMs + random() * (policy.maxDelayMs - policy.minDelayMs);
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

/** An attempt failed in a way worth another: the service was unavailable, or the connection failed or dropped. */
export class TransientFailure extends Error {
  constructor(
    readonly failure: ServiceUnavailableError,
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
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof TransientFailure)) throw error;
      const elapsed = Date.now() - started;
      const delay = nextDelay(options.policy, n, elapsed, error.retryAfterMs, options.random);
      if (delay === undefined) {
        const { failure } = error;
        throw new ServiceUnavailableError(
          `${failure.message} (gave up after ${n} attempt${n === 1 ? '' : 's'} in ${elapsed} ms)`,
          failure.retryAfterS,
          { status: failure.status, cause: failure },
        );
      }
      options.onRetry?.({ attempt: n, delayMs: delay });
      await sleep(delay, options.signal);
    }
  }
}
