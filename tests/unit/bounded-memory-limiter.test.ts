import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BoundedMemoryLimiter } from '@/lib/server/load-limits/bounded-memory-limiter';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const rejected = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (r: unknown) => r,
  );

describe('BoundedMemoryLimiter', () => {
  it('counts the keys it holds as the library’s own answers say when each window or block ends', async () => {
    const limiter = new BoundedMemoryLimiter({ points: 1, duration: 60, blockDuration: 120 }, 10);
    await limiter.consume('a');
    await limiter.consume('b');
    expect(await rejected(limiter.consume('b'))).toBeInstanceOf(RateLimiterRes);
    await limiter.set('forever', 1, 0);
    expect(limiter.size).toBe(3);
    // a's window ends at 60 s; b, refused, is blocked until 120 s; a key set without a duration stays.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(limiter.size).toBe(2);
    expect(await limiter.get('a')).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(limiter.size).toBe(1);
    expect(await limiter.get('b')).toBeNull();
    await limiter.delete('forever');
    expect(limiter.size).toBe(0);
  });

  it('keeps a blocked key blocked through a flood of other keys, and never holds more than its bound', async () => {
    const onFull = vi.fn();
    const limiter = new BoundedMemoryLimiter({ points: 2, duration: 900, blockDuration: 900 }, 100, onFull);
    for (let i = 0; i < 3; i++) await rejected(limiter.consume('guesser'));
    for (let i = 0; i < 1000; i++) await limiter.consume(`flood-${i}`);
    expect(limiter.size).toBe(100);
    expect(onFull).toHaveBeenCalled();
    const still = await rejected(limiter.consume('guesser'));
    expect(still).toBeInstanceOf(RateLimiterRes);
    expect((still as RateLimiterRes).msBeforeNext).toBeGreaterThan(899_000);
  });

  it('lets a key it has no room for through uncounted, and counts it once keys expire', async () => {
    const limiter = new BoundedMemoryLimiter({ points: 1, duration: 60 }, 2);
    await limiter.consume('a');
    await limiter.consume('b');
    for (let i = 0; i < 5; i++) expect((await limiter.consume('c')).consumedPoints).toBe(0);
    expect(await limiter.get('c')).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(limiter.size).toBe(0);
    await limiter.consume('c');
    expect(await rejected(limiter.consume('c'))).toBeInstanceOf(RateLimiterRes);
  });

  it('gives points back only to a key it holds (no bonus for a key whose window ended)', async () => {
    const limiter = new BoundedMemoryLimiter({ points: 1, duration: 60 }, 10);
    await limiter.reward('gone');
    expect(await limiter.get('gone')).toBeNull();
    await limiter.consume('here');
    await limiter.reward('here');
    expect((await limiter.get('here'))!.consumedPoints).toBe(0);
  });
});
