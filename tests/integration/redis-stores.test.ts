import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRevocationStore, RedisTokenStore } from '@/lib/server/redis-stores';

const PORT = 6392;
let server: ChildProcess;
let redis: Redis;

beforeAll(async () => {
  server = spawn('redis-server', ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  // Retries until the server listens (bounded: 50 × 100 ms); refused connections before that are expected.
  redis = new Redis(`redis://127.0.0.1:${PORT}`, { retryStrategy: (n) => (n > 50 ? null : 100) });
  redis.on('error', () => {});
  await redis.ping();
});
afterAll(() => {
  redis.disconnect();
  server.kill('SIGTERM');
});

describe('Redis stores (a real redis-server)', () => {
  it('tokens: shared, expiring with the token, removed only while still the refused one', async () => {
    const store = new RedisTokenStore(redis);
    await store.set('org', { token: 'first', expiresAt: Date.now() + 60_000 });
    expect((await store.get('org'))?.token).toBe('first');
    await store.delete('org', 'stale');
    expect((await store.get('org'))?.token).toBe('first');
    await store.delete('org', 'first');
    expect(await store.get('org')).toBeUndefined();
    await store.set('short', { token: 't', expiresAt: Date.now() + 50 });
    await new Promise((r) => setTimeout(r, 120));
    expect(await store.get('short')).toBeUndefined();
  });

  it('revocations: refused until the session would have expired, then forgotten', async () => {
    const store = new RedisRevocationStore(redis);
    await store.revoke('sid-1', Date.now() + 100);
    expect(await store.isRevoked('sid-1')).toBe(true);
    expect(await store.isRevoked('sid-2')).toBe(false);
    await new Promise((r) => setTimeout(r, 180));
    expect(await store.isRevoked('sid-1')).toBe(false);
  });
});
