import type { ChildProcess } from 'node:child_process';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/server/app-error';
import { sharedRedis } from '@/lib/server/redis-connection';
import { createSignInThrottle } from '@/lib/server/sign-in-throttle';
import { redisClient, spawnRedisServer } from '../helpers/redis-server';

const PORT = 6394;
let server: ChildProcess;
let redis: Redis;

beforeAll(async () => {
  Object.assign(process.env, {
    BATCH_API_BASE_URL: 'http://127.0.0.1:9',
    SESSION_SECRET: 'redis-limits-session-secret-0123456789',
    REDIS_URL: `redis://127.0.0.1:${PORT}`,
    SIGNIN_ATTEMPTS_PER_IP: '4',
    SIGNIN_FAILURES_PER_IP: '2',
    SIGNIN_AUTH_CALLS_PER_CLIENT: '2',
  });
  server = spawnRedisServer(PORT);
  redis = await redisClient(PORT);
  await sharedRedis().ping();
});
afterAll(() => {
  redis.disconnect();
  sharedRedis().disconnect();
  server.kill('SIGTERM');
});

/** Two app instances: each its own limiters and insurance, sharing only the Redis. No failure delays. */
const instances = () => [createSignInThrottle(async () => {}), createSignInThrottle(async () => {})] as const;
const RIGHT = { clientId: 'org', clientSecret: 'right' };
const guess = (i: number) => ({ clientId: 'org', clientSecret: `guess-${i}` });
const check = (credentials: { clientSecret: string }) => async () => credentials.clientSecret === 'right';
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)));

describe('sign-in limits in Redis (a real redis-server)', () => {
  it('two instances count one address together: attempts, then failures (blocked 15 min on both, kept in Redis)', async () => {
    const [a, b] = instances();
    await a.guard('198.51.100.1', RIGHT, check(RIGHT));
    await b.guard('198.51.100.1', RIGHT, check(RIGHT));
    await a.guard('198.51.100.1', RIGHT, check(RIGHT));
    await b.guard('198.51.100.1', RIGHT, check(RIGHT));
    expect(await refusal(a.guard('198.51.100.1', RIGHT, check(RIGHT)))).toMatchObject({ code: 'too_many_attempts' });
    expect(await redis.pttl('tsb:signin-attempts:198.51.100.1')).toBeGreaterThan(50_000);

    expect(await a.guard('198.51.100.2', guess(1), check(guess(1)))).toBe(false);
    expect(await b.guard('198.51.100.2', guess(2), check(guess(2)))).toBe(false);
    const blocked = await refusal(a.guard('198.51.100.2', RIGHT, check(RIGHT)));
    expect(blocked).toMatchObject({ code: 'too_many_attempts', retryAfterS: 900 });
    expect(await refusal(b.guard('198.51.100.2', RIGHT, check(RIGHT)))).toMatchObject({ code: 'too_many_attempts' });
    expect(await redis.pttl('tsb:signin-failures:198.51.100.2')).toBeGreaterThan(890_000);
    // An accepted sign-in gives its reserved failure back: nothing left counted for that address.
    expect(await redis.get('tsb:signin-failures:198.51.100.1')).toBe('0');
  });

  it('two instances share the auth calls per client ID and the priority lane (a keyed hash, never the secret)', async () => {
    const [a, b] = instances();
    let calls = 0;
    const counted = (credentials: { clientSecret: string }) => async () => (calls++, check(credentials)());
    await a.guard('192.0.2.1', RIGHT, counted(RIGHT));
    const lane = await redis.keys('tsb:signin-verified:*');
    expect(lane).toHaveLength(1);
    expect(lane[0]).not.toContain('right');
    expect(await redis.pttl(lane[0]!)).toBeGreaterThan(6 * 24 * 3600_000);

    // Another instance spent this second's 2 auth calls for the client ID (held for 3 s here, well past the poll below on a busy machine): B's guesses
    // queue (4) or are refused (4), and B lets the right secret past them, with its one auth call.
    await redis.set('tsb:signin-auth:id:org', '2', 'PX', 3000);
    calls = 0;
    const settled: (AppError | null)[] = [];
    const waiting = Array.from({ length: 8 }, (_, i) =>
      refusal(b.guard(`192.0.2.${10 + i}`, guess(i), counted(guess(i)))).then((outcome) => void settled.push(outcome)),
    );
    await expect.poll(() => settled.length, { interval: 5, timeout: 2000 }).toBe(4);
    expect(settled[0]).toMatchObject({ code: 'too_many_attempts', field: 'clientId', retryAfterS: 2 });
    expect(calls).toBe(0);
    expect(await b.guard('192.0.2.30', RIGHT, counted(RIGHT))).toBe(true);
    expect(calls).toBe(1);
    await Promise.all(waiting);
  });

  it('a failure reserved in Redis is given back only into its own window (after it, no allowance below zero)', async () => {
    const { RateLimiterRedis } = await import('rate-limiter-flexible');
    const { BoundedMemoryLimiter } = await import('@/lib/server/bounded-memory-limiter');
    const { ClientQueue } = await import('@/lib/server/client-queue');
    const { MemoryVerifiedSignIns, verifiedKey } = await import('@/lib/server/verified-sign-ins');
    const { SignInThrottle } = await import('@/lib/server/sign-in-throttle');
    // A window of one second, so that one slow sign-in outlives it.
    const failures = new RateLimiterRedis({ storeClient: redis, keyPrefix: 'test-failures', points: 2, duration: 1, blockDuration: 60 });
    const throttle = new SignInThrottle({
      attempts: new BoundedMemoryLimiter({ keyPrefix: 'a', points: 100, duration: 60 }),
      failures,
      queue: new ClientQueue(new BoundedMemoryLimiter({ keyPrefix: 'q', points: 100, duration: 1 })),
      verified: new MemoryVerifiedSignIns(verifiedKey('s'.repeat(32))),
      sleep: async () => {},
    });
    const slow = async () => (await new Promise((r) => setTimeout(r, 1200)), true);
    expect(await throttle.guard('198.51.100.9', RIGHT, slow)).toBe(true);
    expect(await throttle.guard('198.51.100.9', guess(1), check(guess(1)))).toBe(false);
    expect(await throttle.guard('198.51.100.9', guess(2), check(guess(2)))).toBe(false);
    expect(await refusal(throttle.guard('198.51.100.9', RIGHT, check(RIGHT)))).toMatchObject({ code: 'too_many_attempts' });
  });

  it('a Redis that cannot answer: each instance limits in memory instead; nobody is locked out, guessing stays limited', async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    const [a] = instances();
    expect(await a.guard('203.0.113.1', RIGHT, check(RIGHT))).toBe(true);
    expect(await a.guard('203.0.113.2', guess(1), check(guess(1)))).toBe(false);
    expect(await a.guard('203.0.113.2', guess(2), check(guess(2)))).toBe(false);
    expect(await refusal(a.guard('203.0.113.2', RIGHT, check(RIGHT)))).toMatchObject({ code: 'too_many_attempts', retryAfterS: 900 });
    expect(await a.guard('203.0.113.3', RIGHT, check(RIGHT))).toBe(true);
  });
});
