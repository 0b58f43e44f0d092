import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_PREFIX } from '@/lib/server/stores/redis-connection';
import { RedisTokenStore } from '@/lib/server/stores/redis-token-store';
import { redisClient, spawnRedisServer } from '../helpers/redis-server';

const PORT = 6392;
let server: ChildProcess;
let redis: Redis;

beforeAll(async () => {
  server = spawnRedisServer(PORT);
  redis = await redisClient(PORT);
});
afterAll(() => {
  redis.disconnect();
  server.kill('SIGTERM');
});

/** A clock the test moves: the stores compute each entry's lifetime from it, Redis keeps the lifetime. */
const fixedClock = (t: number) => () => t;
const NOW = Date.UTC(2026, 0, 1);

describe('Redis stores (a real redis-server)', () => {
  it('tokens: shared, expiring with the token, removed only while still the refused one', async () => {
    const store = new RedisTokenStore(redis, fixedClock(NOW));
    await store.set('org', { token: 'first', expiresAt: NOW + 60_000, issuedAt: NOW });
    expect((await store.get('org'))?.token).toBe('first');
    // Redis holds the entry exactly as long as the token has left (give or take the command's own time).
    const pttl = await redis.pttl(`${REDIS_PREFIX}token:org`);
    expect(pttl).toBeGreaterThan(59_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
    await store.delete('org', 'stale');
    expect((await store.get('org'))?.token).toBe('first');
    await store.delete('org', 'first');
    expect(await store.get('org')).toBeUndefined();
    // A token without a known lifetime is kept until refused, or a day at most.
    await store.set('open', { token: 't', expiresAt: null, issuedAt: NOW });
    expect(await redis.pttl(`${REDIS_PREFIX}token:open`)).toBeGreaterThan(86_399_000);
  });

  it('a Redis that cannot answer is a cache miss for tokens (sessions live in the database, not here)', async () => {
    const gone = new Redis(`redis://127.0.0.1:${PORT + 1}`, {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    gone.on('error', () => {});
    const tokens = new RedisTokenStore(gone);
    await tokens.set('org', { token: 't', expiresAt: null, issuedAt: NOW });
    expect(await tokens.get('org')).toBeUndefined();
    gone.disconnect();
  });
});

describe('one token fetch for all instances (a real redis-server)', () => {
  it('instances that find no token at the same moment fetch it once: one takes the lock, the others wait for its token', async () => {
    const { TokenCache } = await import('@/lib/batch-api/token-cache');
    await redis.del(`${REDIS_PREFIX}token:org-x`, `${REDIS_PREFIX}token-lock:org-x`);
    let fetches = 0;
    const fetchToken = async () => {
      fetches++;
      await new Promise((r) => setTimeout(r, 60)); // the auth endpoint takes a moment
      return { token: `t${fetches}`, expiresAt: Date.now() + 60_000, issuedAt: Date.now() };
    };
    // Three instances: each its own cache and store object, one Redis between them.
    const instances = [1, 2, 3].map(() => new TokenCache(new RedisTokenStore(redis)));
    const tokens = await Promise.all(
      instances.flatMap((cache) => [cache.get('org-x', fetchToken), cache.get('org-x', fetchToken)]),
    );
    expect(fetches).toBe(1);
    expect(new Set(tokens.map((t) => t.token))).toEqual(new Set(['t1']));
    // The service refuses t1 on every instance at once: one renewal for all, newer than t1.
    const renewed = await Promise.all(instances.map((cache) => cache.renew('org-x', tokens[0]!, fetchToken)));
    expect(fetches).toBe(2);
    expect(new Set(renewed.map((t) => t.token))).toEqual(new Set(['t2']));
  });

  it('an instance whose fetch failed lets go of the lock: the others fetch at once instead of waiting it out', async () => {
    const { TokenCache } = await import('@/lib/batch-api/token-cache');
    await redis.del(`${REDIS_PREFIX}token:org-z`, `${REDIS_PREFIX}token-lock:org-z`);
    const failing = new TokenCache(new RedisTokenStore(redis));
    const waiting = new TokenCache(new RedisTokenStore(redis));
    let fetches = 0;
    const slowFailure = async () => {
      fetches++;
      await new Promise((r) => setTimeout(r, 100));
      throw new Error('auth endpoint down');
    };
    const started = Date.now();
    const [first, second] = await Promise.allSettled([
      failing.get('org-z', slowFailure),
      (async () => {
        await new Promise((r) => setTimeout(r, 20)); // the first instance holds the lock by now
        return waiting.get('org-z', async () => ({ token: `t${++fetches}`, expiresAt: null, issuedAt: Date.now() }));
      })(),
    ]);
    expect(first.status).toBe('rejected');
    expect(second).toMatchObject({ status: 'fulfilled', value: { token: 't2' } });
    expect(Date.now() - started).toBeLessThan(4000); // not the lock's 5 s
  });

  it('a sign-in proves the credentials itself: it never waits for another instance’s token', async () => {
    const { TokenCache } = await import('@/lib/batch-api/token-cache');
    await redis.set(`${REDIS_PREFIX}token-lock:org-y`, 'another instance', 'PX', 5000);
    let fetches = 0;
    const cache = new TokenCache(new RedisTokenStore(redis));
    await cache.fetchNew('org-y', async () => ({ token: `t${++fetches}`, expiresAt: null, issuedAt: Date.now() }), {
      shared: false,
    });
    expect(fetches).toBe(1);
  });
});
