import 'server-only';
import { TokenCache } from '../batch-api';
import { getConfig } from './config';
import { sharedRedis } from './redis-connection';
import { RedisRevocationStore } from './redis-revocation-store';
import { RedisTokenStore } from './redis-token-store';
import { MemoryRevocationStore, type RevocationStore } from './revocations';

/**
 * What several instances must agree on lives in Redis when REDIS_URL is set, in this process's memory
 * otherwise: the revocation list (a session signed out on one instance is refused by all) and the tokens.
 */
const holder = globalThis as unknown as { __revocations?: RevocationStore; __tokenCache?: TokenCache };

export function revocationStore(): RevocationStore {
  holder.__revocations ??= getConfig().redisUrl ? new RedisRevocationStore(sharedRedis()) : new MemoryRevocationStore();
  return holder.__revocations;
}

/** One token cache for the whole server process: every session of an organisation shares its token. */
export function tokenCache(): TokenCache {
  holder.__tokenCache ??= new TokenCache(getConfig().redisUrl ? new RedisTokenStore(sharedRedis()) : undefined);
  return holder.__tokenCache;
}
