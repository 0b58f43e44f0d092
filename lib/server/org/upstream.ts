import 'server-only';
import { AuthenticationError, BatchApiClient, BatchApiError, TokenCache } from '../../batch-api';
import { keepAliveFetch } from '../../batch-api/keep-alive-fetch';
import { getConfig } from '../config';
import { problemOf } from '../http/error-table';
import { upstreamShare } from '../load-limits';
import { recordUpstreamCall, recordUpstreamRetry } from '../http/request-context';
import { settingsStore } from '../settings';
import { tokenCache } from '../stores/shared-stores';
import { tracingActive } from '../tracing/setup';
import { tracedFetch } from '../tracing/spans';
import type { Organisation } from './organisations-store';

type Credentials = { clientId: string; clientSecret: string };

/** Exchanges with a span each while traces are recorded. */
const traced = tracedFetch(keepAliveFetch);

/**
 * The upstream client for a set of client credentials, sharing the process's token cache, each exchange
 * within the organisation's share of the process's upstream connections (see upstreamShare).
 */
export function clientWith(credentials: Credentials, organisationId: string): BatchApiClient {
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
    slot: (signal, first) => upstreamShare().acquire(organisationId, signal, { first }),
  });
}

/**
 * The organisation's upstream client, from its credentials as the database holds them now (the secret
 * decrypted here, for this request only): a secret an administrator replaced on any instance is used from
 * the next request on.
 */
export async function upstreamFor(organisation: Pick<Organisation, 'id'>): Promise<BatchApiClient> {
  return clientWith(await settingsStore().organisations.credentials(organisation.id), organisation.id);
}

export type ConnectionVerdict = { ok: boolean; detail: string };

/**
 * A real sign-in at the service with these credentials (never a cached token), and its verdict in words:
 * accepted, refused, or the service unreachable or failing.
 */
export async function testCredentials(credentials: Credentials, organisationId: string): Promise<ConnectionVerdict> {
  try {
    await clientWith(credentials, organisationId).authenticate({ fresh: true });
    return { ok: true, detail: 'the Batch Data Service accepted the client ID and secret' };
  } catch (error) {
    if (error instanceof AuthenticationError)
      return { ok: false, detail: 'the Batch Data Service refused the client ID or secret' };
    if (error instanceof BatchApiError) return { ok: false, detail: problemOf(error).detail };
    throw error;
  }
}

/** Forgets the access token fetched with these credentials (they were replaced). */
export async function dropToken(credentials: Credentials): Promise<void> {
  const { baseUrl, version } = getConfig();
  await tokenCache().forget(TokenCache.keyFor({ baseUrl, version, ...credentials }));
}
