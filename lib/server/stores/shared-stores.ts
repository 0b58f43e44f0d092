import 'server-only';
import { RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TokenCache } from '../../batch-api';
import { BoundedMemoryLimiter } from '../load-limits/bounded-memory-limiter';
import { getConfig } from '../config';
import { logLine } from '../logging';
import { REDIS_PREFIX, sharedRedis } from './redis-connection';
import { RedisTokenStore } from './redis-token-store';

/**
 * What several instances share besides the database lives in Redis when REDIS_URL is set, in this process's
 * memory otherwise: the organisations' access tokens and the sign-in counters. (Sessions live in the
 * database: lib/server/auth/session-store.ts.)
 */
const holder = globalThis as unknown as { __tokenCache?: TokenCache };

/** One token cache for the whole server process: every session of an organisation shares its token. */
export function tokenCache(): TokenCache {
  holder.__tokenCache ??= new TokenCache(getConfig().redisUrl ? new RedisTokenStore(sharedRedis()) : undefined);
  return holder.__tokenCache;
}

type LimiterOptions = { keyPrefix: string; points: number; duration: number; blockDuration?: number };

/**
 * A sign-in limiter: in Redis when REDIS_URL is set (every instance counts together), with a bounded
 * in-memory limiter of the same settings as its insurance: while Redis cannot answer, each instance limits
 * on its own (failing closed would lock everyone out, failing open would let guessing go unlimited); counts
 * are not carried over either way. The insurance answers at once while the connection is not ready (ioredis
 * would otherwise hold each command for seconds of reconnection attempts), so also for the first sign-ins
 * of an instance whose connection is still being made. Without REDIS_URL, the bounded in-memory limiter.
 */
export function signInLimiter(options: LimiterOptions): RateLimiterAbstract {
  let warned = 0;
  const memory = new BoundedMemoryLimiter(options, undefined, () => {
    if (Date.now() - warned < 60_000) return;
    warned = Date.now();
    logLine('warn', 'sign-in limiter full: new keys are not counted until some expire', { limiter: options.keyPrefix });
  });
  if (!getConfig().redisUrl) return memory;
  return new RateLimiterRedis({
    ...options,
    keyPrefix: `${REDIS_PREFIX}${options.keyPrefix}`,
    storeClient: sharedRedis(),
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}
