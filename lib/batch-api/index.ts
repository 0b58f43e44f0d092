import 'server-only';

/** The upstream client for server code. Holds credentials and tokens: never import it from the browser. */
export { BatchApiClient, type BatchApiClientOptions, type RequestOptions, type RetryNotice } from './client';
export * from './errors';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
export * from './schemas';
export { MemoryTokenStore, TokenCache, type CachedToken, type TokenStore } from './token-cache';
export type { ExchangeSlot, UpstreamCall } from './transport';
export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, RangeLoad, type RangeLoadOptions } from './range-load';
export { maxUnfinishedParts, type RangePart } from './range-parts';
export { OrderedLoad, type OrderedLoadOptions } from './ordered-load';
export { AdaptiveLimit } from './adaptive-limit';
