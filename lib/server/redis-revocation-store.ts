import 'server-only';
import type { Redis } from 'ioredis';
import { AppError } from './app-error';
import { REDIS_PREFIX } from './redis-connection';
import type { RevocationStore } from './revocations';

/**
 * Signed-out session ids, shared by every instance: a session ended on one is refused by all. An entry
 * expires by itself when the session would have. If Redis cannot answer, the caller gets an AppError rather
 * than a session that might have been signed out.
 */
export class RedisRevocationStore implements RevocationStore {
  constructor(
    private redis: Redis,
    private now: () => number = Date.now,
  ) {}

  async revoke(sid: string, untilMs: number) {
    const ttl = Math.max(1, Math.ceil(untilMs - this.now()));
    await this.guard(() => this.redis.set(`${REDIS_PREFIX}revoked:${sid}`, '1', 'PX', ttl));
  }

  async isRevoked(sid: string) {
    return (await this.guard(() => this.redis.exists(`${REDIS_PREFIX}revoked:${sid}`))) === 1;
  }

  private async guard<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new AppError('store_unavailable', 'the session store is unavailable; try again shortly', {
        field: 'session',
        retryAfterS: 5,
        cause: error,
      });
    }
  }
}
