import 'server-only';
import { Redis } from 'ioredis';
import { getConfig } from '../config';
import { logLine } from '../logging';
import { countRedisError } from '../metrics/errors';

/** Keys of this app in a Redis it may share with others. */
export const REDIS_PREFIX = 'tsb:';

/** A connection whose commands fail fast (not queued for minutes) when Redis is away. */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableAutoPipelining: true });
  redis.on('error', (error) => {
    countRedisError();
    logLine('error', 'redis', { error: String(error.message) });
  });
  return redis;
}

const holder = globalThis as unknown as { __redis?: Redis };

/** The process's one Redis connection (REDIS_URL must be set). */
export function sharedRedis(): Redis {
  holder.__redis ??= connectRedis(getConfig().redisUrl!);
  return holder.__redis;
}

/** Ends the shared connection if there is one (at shutdown), after the commands already sent. */
export async function closeSharedRedis(): Promise<void> {
  const redis = holder.__redis;
  holder.__redis = undefined;
  await redis?.quit().catch(() => redis.disconnect());
}
