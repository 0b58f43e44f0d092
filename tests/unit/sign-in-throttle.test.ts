import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/server/http/app-error';
import { SignInThrottle } from '@/lib/server/auth/sign-in-throttle';
import { BoundedMemoryLimiter } from '@/lib/server/load-limits/bounded-memory-limiter';

const RIGHT = 'the right password';
const PERSON = 'ana@greenfield.example';

/** The policy with its production limits (30 attempts a minute, 100 failures a day per address, 10 in a row per e-mail and address). */
function setUp({ attempts = 30, perAddress = 100, perAccount = 10 } = {}) {
  const throttle = new SignInThrottle({
    attempts: new BoundedMemoryLimiter({ keyPrefix: 'attempts', points: attempts, duration: 60 }),
    failuresByAddress: new BoundedMemoryLimiter({
      keyPrefix: 'ip',
      points: perAddress,
      duration: 86_400,
      blockDuration: 86_400,
    }),
    failuresByAccount: new BoundedMemoryLimiter({
      keyPrefix: 'account',
      points: perAccount,
      duration: 14 * 86_400,
      blockDuration: 3600,
    }),
  });
  const verify = vi.fn(async (password: string) => password === RIGHT);
  const signIn = (address: string, password = RIGHT, email = PERSON) =>
    throttle.guard(address, email, () => verify(password));
  return { throttle, verify, signIn };
}

const outcome = (promise: Promise<boolean>) =>
  promise.then(
    (right) => (right ? 'signed in' : 'refused'),
    (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)),
  );

// rate-limiter-flexible reads Date.now and sets timers: both move only when the test says so.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('sign-in throttle: failures in a row per e-mail and address (the login recipe)', () => {
  it('ten wrong passwords for one person from one address make that pair wait an hour (429), right password included', async () => {
    const { signIn } = setUp();
    for (let i = 0; i < 10; i++) expect(await signIn('203.0.113.1', `guess ${i}`)).toBe(false);
    const refused = await outcome(signIn('203.0.113.1'));
    expect(refused).toMatchObject({ code: 'too_many_attempts', field: 'email', retryAfterS: 3600 });
    expect((refused as AppError).message).toBe(
      'too many failed sign-ins for this e-mail address from here; try again in 60 min',
    );
    await vi.advanceTimersByTimeAsync(59 * 60_000);
    expect(await outcome(signIn('203.0.113.1'))).toMatchObject({ code: 'too_many_attempts', retryAfterS: 60 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await signIn('203.0.113.1')).toBe(true);
  });

  it('a flood of wrong passwords for one person from many addresses never locks them out from their own', async () => {
    const { signIn } = setUp();
    for (let i = 0; i < 200; i++)
      expect(await outcome(signIn(`198.51.100.${i % 50}`, `guess ${i}`))).not.toBe('signed in');
    expect(await signIn('192.0.2.7')).toBe(true);
  });

  it('ten failures from one office address for one colleague leave the other colleagues there alone', async () => {
    const { signIn } = setUp();
    for (let i = 0; i < 10; i++) await signIn('203.0.113.1', `typo ${i}`, 'tom@greenfield.example');
    for (let p = 0; p < 19; p++)
      expect(await signIn('203.0.113.1', RIGHT, `colleague${p}@greenfield.example`)).toBe(true);
  });

  it('a right password clears the run of failures, so a person who mistypes now and then is never held up', async () => {
    const { signIn } = setUp();
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 9; i++) expect(await signIn('203.0.113.1', `typo ${i}`)).toBe(false);
      expect(await signIn('203.0.113.1')).toBe(true);
      await vi.advanceTimersByTimeAsync(60_000);
    }
  });

  it('counts e-mail addresses whatever their case', async () => {
    const { signIn } = setUp({ perAccount: 2 });
    await signIn('a', 'x', 'Ana@Greenfield.example');
    await signIn('a', 'x', 'ana@greenfield.EXAMPLE');
    expect(await outcome(signIn('a'))).toMatchObject({ code: 'too_many_attempts', field: 'email' });
  });
});

describe('sign-in throttle: per address', () => {
  it('refuses an address for the rest of the day after SIGNIN_FAILURES_PER_IP failures, whoever they were for', async () => {
    const { signIn } = setUp({ perAddress: 5 });
    for (let i = 0; i < 5; i++) expect(await signIn('203.0.113.1', 'x', `p${i}@example.org`)).toBe(false);
    const refused = await outcome(signIn('203.0.113.1', RIGHT, 'new@example.org'));
    expect(refused).toMatchObject({ code: 'too_many_attempts', field: undefined, retryAfterS: 86_400 });
    expect((refused as AppError).message).toBe('too many failed sign-ins from this address today; try again in 24 h');
    expect(await signIn('203.0.113.2', RIGHT, 'new@example.org')).toBe(true);
  });

  it('does not count right passwords, or a store that failed, as failures', async () => {
    const { throttle } = setUp({ perAddress: 2, perAccount: 2 });
    for (let i = 0; i < 5; i++) expect(await throttle.guard('a', PERSON, async () => true)).toBe(true);
    for (let i = 0; i < 5; i++)
      await expect(throttle.guard('a', PERSON, () => Promise.reject(new Error('store down')))).rejects.toThrow(
        'store down',
      );
    expect(await throttle.guard('a', 'x@example.org', async () => false)).toBe(false);
    expect(await throttle.guard('a', 'y@example.org', async () => false)).toBe(false);
    expect(await outcome(throttle.guard('a', PERSON, async () => true))).toMatchObject({ code: 'too_many_attempts' });
  });

  it('counts concurrent guesses before they are answered, so they cannot outrun the limit', async () => {
    const { signIn, verify } = setUp({ perAccount: 3 });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => outcome(signIn('a', `guess ${i}`))));
    expect(results.filter((r) => r === 'refused')).toHaveLength(3);
    expect(results.filter((r) => r instanceof AppError)).toHaveLength(5);
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('refuses more than SIGNIN_ATTEMPTS_PER_IP attempts a minute from one address, with the wait until its minute ends', async () => {
    const { signIn } = setUp({ attempts: 3 });
    for (let i = 0; i < 3; i++) expect(await signIn('a')).toBe(true);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await outcome(signIn('a'))).toMatchObject({ code: 'too_many_attempts', retryAfterS: 40 });
    expect(await signIn('b')).toBe(true);
  });

  it('takes any e-mail as a key, even one named like an object property, and keeps none of them in clear', async () => {
    const { throttle } = setUp();
    for (const email of ['__proto__', 'constructor', 'toString'])
      expect(await throttle.guard('a', email, async () => false)).toBe(false);
    const keys = [
      ...(
        throttle as unknown as { parts: { failuresByAccount: { _memoryStorage: { _storage: Map<string, unknown> } } } }
      ).parts.failuresByAccount._memoryStorage._storage.keys(),
    ];
    expect(keys.join(' ')).not.toMatch(/proto|constructor|toString/);
  });
});
