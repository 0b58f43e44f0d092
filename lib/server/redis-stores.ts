import 'server-only';
import { Redis } from 'ioredis';
import type { CachedToken, TokenStore } from '../batch-api';
import { ApiError } from './api-error';
import type { RevocationStore } from './revocations';

const PREFIX = 'tsb:';

/** One connection per process; commands fail fast (not queued for minutes) when Redis is away. */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableAutoPipelining: true });
  redis.on('error', (error) => console.error(JSON.stringify({ level: 'error', msg: 'redis', error: String(error.message) })));
  return redis;
}

/**
 * Signed-out session ids, shared by every instance: a session ended on one is refused by all. An entry
 * expires by itself when the session would have. If Redis cannot answer, requests get a 503 rather than
 * a session that might have been signed out.
 */
export class RedisRevocationStore implements RevocationStore {
  constructor(private redis: Redis) {}

  async revoke(sid: string, untilMs: number) {
    const ttl = Math.max(1, Math.ceil(untilMs - Date.now()));
    await this.guard(() => this.redis.set(`${PREFIX}revoked:${sid}`, '1', 'PX', ttl));
  }

  async isRevoked(sid: string) {
    return (await this.guard(() => this.redis.exists(`${PREFIX}revoked:${sid}`))) === 1;
  }

  private async guard<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch {
      throw new ApiError(503, 'session: the session store is unavailable; try again shortly', { 'retry-after': '5' });
    }
  }
}

/** Compare-and-delete: drop the token only while it is still the one the service refused. */
const DELETE_IF =
  "local v = redis.call('get', KEYS[1]) if v and cjson.decode(v).token == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Access tokens shared by every instance: a token fetched by one serves all until it expires. Keys are
 * hashes of the credentials (see TokenCache.keyFor). Without Redis the instance still works: a failed read
 * counts as a miss, a failed write is skipped.
 */
export class RedisTokenStore implements TokenStore {
  constructor(private redis: Redis) {}

  async get(key: string): Promise<CachedToken | undefined> {
    try {
      const raw = await this.redis.get(`${PREFIX}token:${key}`);
      return raw ? (JSON.parse(raw) as CachedToken) : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: CachedToken) {
    const k = `${PREFIX}token:${key}`;
    try {
      if (value.expiresAt === null) await this.redis.set(k, JSON.stringify(value));
      else await this.redis.set(k, JSON.stringify(value), 'PX', Math.max(1, value.expiresAt - Date.now()));
    } catch {
      // This instance keeps working; others fetch their own token.
    }
  }

  async delete(key: string, token: string) {
    try {
      await this.redis.eval(DELETE_IF, 1, `${PREFIX}token:${key}`, token);
    } catch {
      // A refused token left behind is refused again and replaced.
    }
  }
}
