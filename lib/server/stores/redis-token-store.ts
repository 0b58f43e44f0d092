import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CachedToken, TokenStore } from '../../batch-api';
import { REDIS_PREFIX } from './redis-connection';

/** Compare-and-delete: drop the token only while it is still the one the service refused. */
const DELETE_IF =
  "local v = redis.call('get', KEYS[1]) if v and cjson.decode(v).token == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
const UNKNOWN_LIFETIME_MS = 86_400_000;
/** Release a lock only while it is still ours (it may have lapsed and been taken by another instance). */
const UNLOCK_IF = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Access tokens shared by every instance: a token fetched by one serves all until it expires, and a short
 * lock lets one instance fetch while the others wait for its token. Keys are hashes of the credentials (see
 * TokenCache.keyFor). Without Redis the instance still works: a failed read counts as a miss, a failed write
 * is skipped, and a lock that cannot be taken is no reason not to fetch.
 */
export class RedisTokenStore implements TokenStore {
  constructor(
    private redis: Redis,
    private now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<CachedToken | undefined> {
    try {
      const raw = await this.redis.get(`${REDIS_PREFIX}token:${key}`);
      // An entry written before tokens carried their issue time counts as the oldest.
      return raw ? { issuedAt: 0, ...(JSON.parse(raw) as Omit<CachedToken, 'issuedAt'>) } : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: CachedToken) {
    const k = `${REDIS_PREFIX}token:${key}`;
    // A token of unknown lifetime is kept a day at most: the tokens of secrets since changed do not pile up.
    const ttl = value.expiresAt === null ? UNKNOWN_LIFETIME_MS : Math.max(1, value.expiresAt - this.now());
    try {
      await this.redis.set(k, JSON.stringify(value), 'PX', ttl);
    } catch {
      // This instance keeps working; others fetch their own token.
    }
  }

  async delete(key: string, token: string) {
    try {
      await this.redis.eval(DELETE_IF, 1, `${REDIS_PREFIX}token:${key}`, token);
    } catch {
      // A refused token left behind is refused again and replaced.
    }
  }

  async isLocked(key: string): Promise<boolean> {
    try {
      return (await this.redis.exists(`${REDIS_PREFIX}token-lock:${key}`)) === 1;
    } catch {
      return false;
    }
  }

  async lock(key: string, ttlMs: number): Promise<(() => Promise<void>) | null> {
    const k = `${REDIS_PREFIX}token-lock:${key}`;
    const mine = randomBytes(12).toString('base64url');
    try {
      if ((await this.redis.set(k, mine, 'PX', ttlMs, 'NX')) !== 'OK') return null;
    } catch {
      return async () => {};
    }
    return async () => {
      await this.redis.eval(UNLOCK_IF, 1, k, mine).catch(() => undefined);
    };
  }
}
