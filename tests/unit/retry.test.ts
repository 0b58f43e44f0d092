import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, nextDelay, parseRetryAfter, sleep } from '@/lib/batch-api/retry';

describe('retry policy', () => {
  it('waits 3 to 5 s with jitter by default (spec 7)', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, undefined, () => 0)).toBe(3000);
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, undefined, () => 0.5)).toBe(4000);
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, undefined, () => 0.999999)).toBe(5000);
  });

  it('honours Retry-After, capped', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, 7000)).toBe(7000);
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, 0, 0)).toBe(0);
    expect(nextDelay({ ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 2000 }, 1, 0, 60_000)).toBe(2000);
  });

  it('stops after the last attempt and before the deadline', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, DEFAULT_RETRY_POLICY.maxAttempts, 0, undefined)).toBeUndefined();
    expect(nextDelay({ ...DEFAULT_RETRY_POLICY, deadlineMs: 10_000 }, 1, 8000, 3000)).toBeUndefined();
    expect(nextDelay({ ...DEFAULT_RETRY_POLICY, deadlineMs: 10_000 }, 1, 6000, 3000)).toBe(3000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('4')).toBe(4000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
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
