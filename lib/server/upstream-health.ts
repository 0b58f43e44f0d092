import 'server-only';
import type { UpstreamCall } from '../batch-api';

/** How long the last answer (or failure) of the Batch Data Service still describes it. */
export const SERVICE_RECENT_MS = 5 * 60_000;

/**
 * The service as /api/health tells it: `ok` when its latest call in the last five minutes answered (any
 * status below 500: a 401 or 422 is the service working), `degraded` when that call got no answer or a 5xx,
 * `unknown` when nothing was asked lately. Nothing more is kept: no time, status or count that would tell a
 * stranger when someone signed in, or whether it worked.
 */
export type ServiceHealth = 'ok' | 'degraded' | 'unknown';

type Last = { at: number; answered: boolean };
const holder = globalThis as unknown as { __serviceLast?: Last };

export function noteUpstreamCall(call: Pick<UpstreamCall, 'status'>): void {
  holder.__serviceLast = { at: Date.now(), answered: call.status !== null && call.status < 500 };
}

export function serviceHealth(): ServiceHealth {
  const last = holder.__serviceLast;
  if (!last || Date.now() - last.at >= SERVICE_RECENT_MS) return 'unknown';
  return last.answered ? 'ok' : 'degraded';
}
