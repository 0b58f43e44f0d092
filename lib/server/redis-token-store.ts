import 'server-only';
import type { Redis } from 'ioredis';
import type { CachedToken, TokenStore } from '../batch-api';
import { REDIS_PREFIX } from './redis-connection';

/** Compare-and-delete: drop the token only while it is still the one the service refused. */
const DELETE_IF =
  "local v = redis.call('get', KEYS[1]) if v and cjson.decode(v).token == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Access tokens shared by every instance: a token fetched by one serves all until it expires. Keys are
 * hashes of the credentials (see TokenCache.keyFor). Without Redis the instance still works: a failed read
 * counts as a miss, a failed write is skipped.
 */
export class RedisTokenStore implements TokenStore {
  constructor(
    private redis: Redis,
    private now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<CachedToken | undefined> {
    try {
      const raw = await this.redis.get(`${REDIS_PREFIX}token:${key}`);
      return raw ? (JSON.parse(raw) as CachedToken) : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: CachedToken) {
    const k = `${REDIS_PREFIX}token:${key}`;
    try {
      if (value.expiresAt === null) await this.redis.set(k, JSON.stringify(value));
      else await this.redis.set(k, JSON.stringify(value), 'PX', Math.max(1, value.expiresAt - this.now()));
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
}
