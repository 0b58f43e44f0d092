import 'server-only';
import { BatchApiClient } from '../batch-api';
import { keepAliveFetch } from '../batch-api/keep-alive-fetch';
import { getConfig } from './config';
import { upstreamShare } from './load-limits';
import { recordUpstreamCall, recordUpstreamRetry } from './request-context';
import { tokenCache } from './shared-stores';
import { tracingActive } from './tracing/setup';
import { tracedFetch } from './tracing/spans';

/** Exchanges with a span each while traces are recorded. */
const traced = tracedFetch(keepAliveFetch);

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
    fetch: tracingActive() ? traced : keepAliveFetch,
    onCall: recordUpstreamCall,
    onRetry: recordUpstreamRetry,
    slot: (signal, first) => upstreamShare().acquire(credentials.clientId, signal, { first }),
  });
}
