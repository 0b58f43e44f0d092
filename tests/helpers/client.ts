import { BatchApiClient, type BatchApiClientOptions } from '@/lib/batch-api';
import { DEMO_CREDENTIALS } from '@/sandbox/organisations';
import type { Sandbox } from '@/sandbox/server';

/** Millisecond retry delays so fault tests take no longer than they must. */
export const FAST_RETRY = { minDelayMs: 5, maxDelayMs: 20, backoffBaseMs: 5, deadlineMs: 5000, maxAttempts: 5 };

export function demoClient(sandbox: Sandbox, options: Partial<BatchApiClientOptions> = {}) {
  return new BatchApiClient({ baseUrl: sandbox.url, ...DEMO_CREDENTIALS, retry: FAST_RETRY, ...options });
}
