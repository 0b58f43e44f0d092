/** How the client retries safe requests after a 503 or a dropped connection. */
export type RetryPolicy = {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Without Retry-After, wait a random time in [minDelayMs, maxDelayMs] (spec 7: 3 to 5 s). */
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
