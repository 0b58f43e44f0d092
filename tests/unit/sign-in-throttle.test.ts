import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/server/app-error';
import { BoundedMemoryLimiter } from '@/lib/server/bounded-memory-limiter';
import { ClientQueue } from '@/lib/server/client-queue';
import { failureDelayMs, SignInThrottle } from '@/lib/server/sign-in-throttle';
import { MemoryVerifiedSignIns, verifiedKey } from '@/lib/server/verified-sign-ins';

const RIGHT = { clientId: 'org', clientSecret: 'the-right-secret' };
const wrong = (i: number) => ({ clientId: 'org', clientSecret: `guess-${i}` });
const check = (credentials: { clientSecret: string }) => async () => credentials.clientSecret === RIGHT.clientSecret;

/** The policy with its production limits (30 attempts a minute, 10 failures, 2 auth calls a second per ID). */
function setUp({ attempts = 30, failures = 10, perClient = 2 } = {}) {
  const delays: number[] = [];
  const auth = new BoundedMemoryLimiter({ keyPrefix: 'auth', points: perClient, duration: 1 });
  const queue = new ClientQueue(auth);
  const verified = new MemoryVerifiedSignIns(verifiedKey('s'.repeat(32)));
  const throttle = new SignInThrottle({
    attempts: new BoundedMemoryLimiter({ keyPrefix: 'attempts', points: attempts, duration: 60 }),
    failures: new BoundedMemoryLimiter({ keyPrefix: 'failures', points: failures, duration: 900, blockDuration: 900 }),
    queue,
    verified,
    sleep: async (ms) => void delays.push(ms),
  });
  const verify = vi.fn((credentials: { clientSecret: string }) => check(credentials)());
  const signIn = (address: string, credentials = RIGHT) => throttle.guard(address, credentials, () => verify(credentials));
  return { throttle, queue, verified, delays, verify, signIn };
}

const outcome = (promise: Promise<boolean>) =>
  promise.then(
    (accepted) => (accepted ? 'accepted' : 'refused'),
    (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)),
  );

// rate-limiter-flexible reads Date.now and sets timers: both move only when the test says so.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

// The per-address tests let the per-client-ID rate aside: it has tests of its own below.
describe('sign-in throttle: per address', () => {
  it('slows one address down after half its failures, then refuses it (429, Retry-After 15 min), right secret included', async () => {
    const { signIn, delays } = setUp({ perClient: 1000 });
    for (let i = 0; i < 10; i++) expect(await signIn('203.0.113.1', wrong(i))).toBe(false);
    expect(delays).toEqual([0, 0, 0, 0, 0, 500, 1000, 2000, 4000, 8000]);
    const refused = await outcome(signIn('203.0.113.1'));
    expect(refused).toMatchObject({ code: 'too_many_attempts', field: undefined, retryAfterS: 900 });
    expect((refused as AppError).message).toBe('too many failed sign-ins from this address; try again in 900 s');
    // Still refused 14 minutes on, whatever it sends; let in again after the 15 minutes.
    await vi.advanceTimersByTimeAsync(14 * 60_000);
    expect(await outcome(signIn('203.0.113.1'))).toMatchObject({ code: 'too_many_attempts', retryAfterS: 60 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await signIn('203.0.113.1')).toBe(true);
  });

  it('does not count accepted sign-ins or failures of the service as failures', async () => {
    const { throttle, delays } = setUp({ failures: 2, perClient: 1000 });
    for (let i = 0; i < 5; i++) expect(await throttle.guard('a', RIGHT, async () => true)).toBe(true);
    for (let i = 0; i < 5; i++) await expect(throttle.guard('a', RIGHT, () => Promise.reject(new Error('503')))).rejects.toThrow('503');
    expect(delays.every((d) => d === 0)).toBe(true);
    expect(await throttle.guard('a', wrong(1), async () => false)).toBe(false);
    expect(await throttle.guard('a', wrong(2), async () => false)).toBe(false);
    expect(await outcome(throttle.guard('a', RIGHT, async () => true))).toMatchObject({ code: 'too_many_attempts' });
  });

  it('gives a reserved failure back only into the window it came from (no allowance below zero after it)', async () => {
    const { throttle } = setUp({ failures: 2, perClient: 1000 });
    // One sign-in that outlives the 15-minute window of its reservation, then is accepted.
    const slow = throttle.guard('a', RIGHT, async () => {
      await new Promise((r) => setTimeout(r, 16 * 60_000));
      return true;
    });
    await vi.advanceTimersByTimeAsync(16 * 60_000);
    expect(await slow).toBe(true);
    // A fresh window holds exactly its two failures, not three.
    expect(await throttle.guard('a', wrong(1), async () => false)).toBe(false);
    expect(await throttle.guard('a', wrong(2), async () => false)).toBe(false);
    expect(await outcome(throttle.guard('a', RIGHT, async () => true))).toMatchObject({ code: 'too_many_attempts' });
  });

  it('counts concurrent guesses before they are answered, so they cannot outrun the limit', async () => {
    const { signIn, verify } = setUp({ failures: 3, perClient: 1000 });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => outcome(signIn('a', wrong(i)))));
    expect(results.filter((r) => r === 'refused')).toHaveLength(3);
    expect(results.filter((r) => r instanceof AppError)).toHaveLength(5);
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('refuses more than SIGNIN_ATTEMPTS_PER_IP attempts a minute from one address, with the wait until its minute ends', async () => {
    const { signIn } = setUp({ attempts: 3, perClient: 1000 });
    for (let i = 0; i < 3; i++) expect(await signIn('a')).toBe(true);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await outcome(signIn('a'))).toMatchObject({ code: 'too_many_attempts', retryAfterS: 40 });
    expect(await signIn('b')).toBe(true);
  });
});

describe('sign-in throttle: per client ID, never a lock-out', () => {
  it('50 failures for one client ID from 50 addresses, then the right secret from a fresh address signs in', async () => {
    const { signIn } = setUp();
    for (let i = 0; i < 50; i++) {
      const attempt = signIn(`198.51.100.${i}`, wrong(i));
      await vi.advanceTimersByTimeAsync(500); // the queue lets 2 a second through
      expect(await attempt).toBe(false);
    }
    expect(await signIn('192.0.2.1')).toBe(true);
  });

  it('lets SIGNIN_AUTH_CALLS_PER_CLIENT auth calls a second through, queues 2 × that, refuses the rest for 2 s', async () => {
    const { signIn, verify, queue } = setUp();
    const attempts = Array.from({ length: 10 }, (_, i) => outcome(signIn(`198.51.100.${i}`, wrong(i))));
    await vi.advanceTimersByTimeAsync(0);
    expect(verify).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2_000);
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r === 'refused')).toHaveLength(6);
    const busy = results.filter((r) => r instanceof AppError);
    expect(busy).toHaveLength(4);
    expect(busy[0]).toMatchObject({ code: 'too_many_attempts', field: 'clientId', retryAfterS: 2 });
    expect((busy[0] as AppError).message).toBe('too many sign-ins for this client ID at once; try again in 2 s');
    // Nothing is kept per client ID once nobody waits: a flood of IDs leaves no queues behind.
    expect(queue.activeClientIds).toBe(0);
  });

  it('lets lately verified credentials past a full queue (priority lane); they still ask the auth endpoint', async () => {
    const { signIn, verify, verified } = setUp();
    expect(await signIn('192.0.2.1')).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    const flood = Array.from({ length: 20 }, (_, i) => outcome(signIn(`198.51.100.${i}`, wrong(i))));
    await vi.advanceTimersByTimeAsync(0);
    verify.mockClear();
    expect(await signIn('192.0.2.2')).toBe(true);
    expect(verify).toHaveBeenCalledWith(RIGHT);
    // An unknown secret takes the queue, which is full: refused for a moment, not locked out.
    expect(await outcome(signIn('192.0.2.3', { ...RIGHT, clientSecret: 'rotated-secret' }))).toMatchObject({ field: 'clientId', retryAfterS: 2 });
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(flood);
    expect(await verified.has(RIGHT)).toBe(true);
    expect(await verified.has(wrong(1))).toBe(false);
  });

  it('keeps a keyed hash of verified credentials, never the secret, for a week', async () => {
    const { signIn, verified } = setUp();
    await signIn('192.0.2.1');
    const stored = JSON.stringify([...(verified as unknown as { entries: Map<string, number> }).entries.keys()]);
    expect(stored).not.toContain(RIGHT.clientSecret);
    expect(stored).not.toContain(RIGHT.clientId);
    await vi.advanceTimersByTimeAsync(7 * 24 * 3600_000);
    expect(await verified.has(RIGHT)).toBe(false);
  });

  it('takes any client ID as a key, even one named like an object property', async () => {
    const { throttle } = setUp();
    for (const clientId of ['__proto__', 'constructor', 'toString', 'limiter']) {
      expect(await throttle.guard('a', { clientId, clientSecret: 'x' }, async () => false)).toBe(false);
    }
  });
});

describe('failureDelayMs', () => {
  it('is 0 for the first half of the allowance, then doubles from 0.5 s up to 8 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((n) => failureDelayMs(n, 10))).toEqual([0, 0, 0, 0, 0, 500, 1000, 2000, 4000, 8000, 8000]);
    expect([0, 1, 2].map((n) => failureDelayMs(n, 3))).toEqual([0, 0, 500]);
  });
});
