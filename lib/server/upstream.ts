import 'server-only';
import { BatchApiClient, TokenCache } from '../batch-api';
import { keepAliveFetch } from '../batch-api/keep-alive-fetch';
import { getConfig } from './config';
import { sharedRedis } from './redis-connection';
import { RedisTokenStore } from './redis-stores';
import { recordUpstreamCall } from './request-context';

const holder = globalThis as unknown as { __tokenCache?: TokenCache };

/** One token cache for the whole server process: every session of an organisation shares its token. */
export function tokenCache(): TokenCache {
  holder.__tokenCache ??= new TokenCache(getConfig().redisUrl ? new RedisTokenStore(sharedRedis()) : undefined);
  return holder.__tokenCache;
}

export function clientFor(credentials: { clientId: string; clientSecret: string }): BatchApiClient {
  const config = getConfig();
  return new BatchApiClient({
    baseUrl: config.baseUrl,
    version: config.version,
    timeoutMs: config.timeoutMs,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    tokenCache: tokenCache(),
    fetch: keepAliveFetch,
    onCall: recordUpstreamCall,
  });
}
