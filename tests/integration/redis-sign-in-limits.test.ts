import type { ChildProcess } from 'node:child_process';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/server/http/app-error';
import { createSignInThrottle } from '@/lib/server/auth/sign-in-throttle';
import { sharedRedis } from '@/lib/server/stores/redis-connection';
import { redisClient, spawnRedisServer } from '../helpers/redis-server';

const PORT = 6394;
let server: ChildProcess;
let redis: Redis;

beforeAll(async () => {
  Object.assign(process.env, {
    BATCH_API_BASE_URL: 'http://127.0.0.1:9',
    SESSION_SECRET: 'redis-limits-session-secret-0123456789',
    REDIS_URL: `redis://127.0.0.1:${PORT}`,
    SIGNIN_ATTEMPTS_PER_IP: '6',
    SIGNIN_FAILURES_PER_IP: '3',
    SIGNIN_FAILURES_PER_ACCOUNT: '2',
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

/** Two app instances: each its own limiters and insurance, sharing only the Redis. */
const instances = () => [createSignInThrottle(), createSignInThrottle()] as const;
const PERSON = 'ana@greenfield.example';
const right = async () => true;
const wrong = async () => false;
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)),
  );

describe('sign-in limits in Redis (a real redis-server)', () => {
  it('two instances count one address together: attempts a minute, failures per e-mail and address (an hour), per address (a day)', async () => {
    const [a, b] = instances();
    for (const instance of [a, b, a, b, a, b]) expect(await instance.guard('198.51.100.1', PERSON, right)).toBe(true);
    expect(await refusal(a.guard('198.51.100.1', PERSON, right))).toMatchObject({ code: 'too_many_attempts' });
    expect(await redis.pttl('tsb:signin-attempts:198.51.100.1')).toBeGreaterThan(50_000);

    expect(await a.guard('198.51.100.2', PERSON, wrong)).toBe(false);
    expect(await b.guard('198.51.100.2', PERSON, wrong)).toBe(false);
    const blocked = await refusal(a.guard('198.51.100.2', PERSON, right));
    expect(blocked).toMatchObject({ code: 'too_many_attempts', field: 'email', retryAfterS: 3600 });
    expect(await refusal(b.guard('198.51.100.2', PERSON, right))).toMatchObject({
      code: 'too_many_attempts',
      field: 'email',
    });
    // The key names the address, and the e-mail only by a hash.
    const keys = await redis.keys('tsb:signin-fail-account:*');
    expect(keys.some((k) => k.endsWith('_198.51.100.2'))).toBe(true);
    expect(keys.join(' ')).not.toContain('ana');
    // A colleague at that address is not held back; the address has its own daily budget (3 here).
    expect(await b.guard('198.51.100.2', 'tom@greenfield.example', right)).toBe(true);
    expect(await redis.pttl('tsb:signin-fail-ip:198.51.100.2')).toBeGreaterThan(86_000_000);
  });

  it('a right password clears the run of failures on every instance', async () => {
    const [a, b] = instances();
    expect(await a.guard('198.51.100.3', PERSON, wrong)).toBe(false);
    expect(await b.guard('198.51.100.3', PERSON, right)).toBe(true);
    expect(await a.guard('198.51.100.3', PERSON, wrong)).toBe(false);
    expect(await b.guard('198.51.100.3', PERSON, right)).toBe(true);
  });

  it('a Redis that cannot answer: each instance limits in memory instead; nobody is locked out, guessing stays limited', async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    const [a] = instances();
    expect(await a.guard('203.0.113.1', PERSON, right)).toBe(true);
    expect(await a.guard('203.0.113.2', PERSON, wrong)).toBe(false);
    expect(await a.guard('203.0.113.2', PERSON, wrong)).toBe(false);
    expect(await refusal(a.guard('203.0.113.2', PERSON, right))).toMatchObject({
      code: 'too_many_attempts',
      retryAfterS: 3600,
    });
    expect(await a.guard('203.0.113.3', PERSON, right)).toBe(true);
  });
});
