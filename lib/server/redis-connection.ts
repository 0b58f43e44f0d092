import 'server-only';
import type { Redis } from 'ioredis';
import { getConfig } from './config';
import { connectRedis } from './redis-stores';

const holder = globalThis as unknown as { __redis?: Redis };

/** The process's one Redis connection (REDIS_URL must be set). */
export function sharedRedis(): Redis {
  holder.__redis ??= connectRedis(getConfig().redisUrl!);
  return holder.__redis;
}
