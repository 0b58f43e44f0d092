import 'server-only';
import { BatchApiClient } from '../batch-api';
import { keepAliveFetch } from '../batch-api/keep-alive-fetch';
import { getConfig } from './config';
import { upstreamShare } from './load-limits';
import { recordUpstreamCall } from './request-context';
import { tokenCache } from './shared-stores';

/**
 * The upstream client for one organisation's credentials, sharing the process's token cache, each exchange
 * within the organisation's share of the process's upstream connections (see upstreamShare).
 */
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
    slot: (signal, first) => upstreamShare().acquire(credentials.clientId, signal, { first }),
  });
}
