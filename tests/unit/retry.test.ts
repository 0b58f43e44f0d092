import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceUnavailableError, UnexpectedError } from '@/lib/batch-api/errors';
import { sleep } from '@/lib/async/sleep';
import { DEFAULT_RETRY_POLICY, nextDelay, parseRetryAfter, TransientFailure, withRetries } from '@/lib/batch-api/retry';

describe('retry policy', () => {
  it('waits 3 to 5 s with jitter by default (docs/batch-data-service.md#retries)', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, undefined, () => 0)).toBe(3000);
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, undefined, () => 0.5)).toBe(4000);
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, undefined, () => 0.999999)).toBe(5000);
  });

  it('waits a short, doubling, jittered delay after a gateway error or a dropped connection, and after a 429 without Retry-After', () => {
    // `count` is per kind: withRetries counts 429s apart from failures (see the loop's tests below).
    for (const kind of ['gateway', 'connection', 'rate-limited'] as const) {
      expect(
        [1, 2, 3, 4, 5].map((count) => nextDelay(DEFAULT_RETRY_POLICY, count, 0, undefined, () => 1, kind)),
      ).toEqual([500, 1000, 2000, 4000, 5000].map((d, i) => (kind === 'rate-limited' || i < 3 ? d : undefined)));
      expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, undefined, () => 0, kind)).toBe(250);
    }
  });

  it('waits a shorter Retry-After as it is (plus up to 20 %), whatever the kind: not 3-5 s', () => {
    for (const kind of ['unavailable', 'rate-limited', 'gateway'] as const) {
      expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, 1000, () => 0, kind)).toBe(1000);
      expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, 1000, () => 1, kind)).toBe(1200);
    }
  });

  it('never less than the backoff: Retry-After 0 (or a date gone by) does not make a request spin', () => {
    for (const kind of ['unavailable', 'rate-limited', 'gateway'] as const) {
      const expected = kind === 'rate-limited' ? [250, 500, 1000, 2000] : [250, 500, 1000, undefined]; // 4 failures end it
      expect([1, 2, 3, 4].map((n) => nextDelay(DEFAULT_RETRY_POLICY, n, 0, 0, () => 0, kind))).toEqual(expected);
    }
  });

  it('a 429 does not use up the attempts: only the deadline ends waiting for the service to take us', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, 9, 10_000, 1000, () => 0, 'rate-limited')).toBe(2500);
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 29_500, 1000, () => 0, 'rate-limited')).toBeUndefined();
  });

  it('keeps asking through a persistent 429 with Retry-After: 0 a bounded number of times (it spun 769 times a second)', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const attempt = async () => {
      calls++;
      throw new TransientFailure(
        new ServiceUnavailableError('too many', 0, { status: 429, kind: 'rate-limited', retryAfterMs: 0 }),
      );
    };
    // The shortest jitter every time, the most attempts the deadline allows (Math.random made the count vary
    // between 9 and 15, and a bound of 12 failed now and then): waits of 250, 500, 1,000, 2,000 ms, then 2,500 ms
    // (half the 5 s ceiling) until the 30 s deadline: 14 waits, 15 attempts, against hundreds a second before.
    const result = withRetries(attempt, { policy: DEFAULT_RETRY_POLICY, random: () => 0 }).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await result).toBeInstanceOf(ServiceUnavailableError);
    expect(calls).toBe(15);
    vi.useRealTimers();
  });

  it('honours Retry-After, capped', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, 7000, () => 0)).toBe(7000);
    // Not 0: a Retry-After of 0 waits the shortest backoff (it made requests spin, see below).
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, 0, () => 0)).toBe(250);
    expect(nextDelay({ ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 2000 }, 1, 0, 60_000, () => 0)).toBe(2000);
    const jittered = nextDelay(DEFAULT_RETRY_POLICY, 1, 0, 7000)!;
    expect(jittered).toBeGreaterThanOrEqual(7000);
    expect(jittered).toBeLessThanOrEqual(8400);
  });

  it('stops after the last attempt and before the deadline', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, DEFAULT_RETRY_POLICY.maxAttempts, 0, undefined)).toBeUndefined();
    expect(nextDelay({ ...DEFAULT_RETRY_POLICY, deadlineMs: 10_000 }, 1, 8000, 3000, () => 0)).toBeUndefined();
    expect(nextDelay({ ...DEFAULT_RETRY_POLICY, deadlineMs: 10_000 }, 1, 6000, 3000, () => 0)).toBe(3000);
  });

  it('reads Retry-After as seconds or an HTTP date, nothing else', () => {
    expect(parseRetryAfter('4')).toBe(4000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    // Date.parse would read these as dates in 2001, and so as "now".
    for (const lenient of ['1.5', '-1', '2x', '2 s']) expect(parseRetryAfter(lenient)).toBeUndefined();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:10 GMT', now)).toBe(0);
  });

  it('sleep ends early with the abort reason', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });
});

describe('the retry loop', () => {
  afterEach(() => vi.useRealTimers());

  const unavailable = (retryAfterMs?: number) =>
    new TransientFailure(new ServiceUnavailableError('down', 4, { status: 503, retryAfterMs }));

  /** An attempt that fails transiently `failures` times, then answers; it records when each attempt ran. */
  function flaky(failures: number, retryAfterMs?: number) {
    const at: number[] = [];
    const attempt = async () => {
      at.push(Date.now());
      if (at.length <= failures) throw unavailable(retryAfterMs);
      return 'answer';
    };
    return { at, attempt };
  }

  it('tries again after each transient failure, waiting the policy’s jittered delay, and tells before each wait', async () => {
    vi.useFakeTimers();
    const { at, attempt } = flaky(2);
    const told: { attempt: number; delayMs: number; kind: string }[] = [];
    const result = withRetries(attempt, {
      policy: DEFAULT_RETRY_POLICY,
      random: () => 0.25,
      onRetry: (r) => told.push(r),
    });
    await vi.runAllTimersAsync();
    expect(await result).toBe('answer');
    expect(told).toEqual([
      { attempt: 1, delayMs: 3500, kind: 'unavailable' },
      { attempt: 2, delayMs: 3500, kind: 'unavailable' },
    ]);
    expect(at.map((t) => t - at[0]!)).toEqual([0, 3500, 7000]);
  });

  it('waits what the service asks for in Retry-After instead', async () => {
    vi.useFakeTimers();
    const { at, attempt } = flaky(1, 1200);
    const result = withRetries(attempt, { policy: DEFAULT_RETRY_POLICY, random: () => 0 });
    await vi.runAllTimersAsync();
    expect(await result).toBe('answer');
    expect(at[1]! - at[0]!).toBe(1200);
  });

  it('gives up after the last attempt with the last failure, saying how long it tried, and its wait hint', async () => {
    vi.useFakeTimers();
    const { at, attempt } = flaky(10);
    const result = withRetries(attempt, { policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 }, random: () => 0 }).catch(
      (e: unknown) => e,
    );
    await vi.runAllTimersAsync();
    const error = (await result) as ServiceUnavailableError;
    expect(at).toHaveLength(3);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.message).toBe('down (gave up after 3 attempts in 6000 ms)');
    expect([error.retryAfterS, error.status]).toEqual([4, 503]);
  });

  it('stops at the deadline rather than start a wait that would cross it', async () => {
    vi.useFakeTimers();
    const { at, attempt } = flaky(10);
    const result = withRetries(attempt, {
      policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 50, deadlineMs: 10_000 },
      random: () => 0,
    }).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await result).toBeInstanceOf(ServiceUnavailableError);
    expect(at.map((t) => t - at[0]!)).toEqual([0, 3000, 6000, 9000]);
  });

  it('keeps asking through 429s, which are not failures, until the service takes the request', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const attempt = async () => {
      if (++calls <= 6)
        throw new TransientFailure(
          new ServiceUnavailableError('too many', 1, { status: 429, kind: 'rate-limited', retryAfterMs: 1000 }),
        );
      return 'taken';
    };
    const result = withRetries(attempt, { policy: DEFAULT_RETRY_POLICY });
    await vi.runAllTimersAsync();
    expect(await result).toBe('taken');
    expect(calls).toBe(7); // more than maxAttempts (4)
  });

  it('lets any other error through at once, and an abort ends a wait', async () => {
    const fatal = new UnexpectedError('/v2/batches answered 500', { status: 500 });
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw fatal;
        },
        { policy: DEFAULT_RETRY_POLICY },
      ),
    ).rejects.toBe(fatal);
    expect(calls).toBe(1);
    const controller = new AbortController();
    const waiting = withRetries(flaky(5).attempt, {
      policy: DEFAULT_RETRY_POLICY,
      signal: controller.signal,
      onRetry: () => controller.abort(new Error('gone')),
    });
    await expect(waiting).rejects.toThrow('gone');
  });
});

describe('the retry loop’s deadline', () => {
  afterEach(() => vi.useRealTimers());

  it('counts from when the caller began, a token fetch before the first attempt included', async () => {
    vi.useFakeTimers();
    const began = Date.now();
    vi.advanceTimersByTime(25_000); // e.g. a slow token fetch
    const attempt = async () => {
      throw new TransientFailure(new ServiceUnavailableError('down', 4, { status: 503 }));
    };
    const result = withRetries(attempt, {
      policy: DEFAULT_RETRY_POLICY,
      random: () => 0,
      elapsed: () => Date.now() - began,
    }).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    // 25 s gone, a 3 s wait fits under the 30 s deadline, a second one does not.
    expect(((await result) as Error).message).toBe('down (gave up after 2 attempts in 28000 ms)');
  });
});
