import 'server-only';
import type { UpstreamCall } from '../../batch-api';

/** How long the last answer (or failure) of the Batch Data Service still describes it. */
export const SERVICE_RECENT_MS = 5 * 60_000;

/**
 * The service as /api/health tells it: `degraded` when its latest call in the last five minutes got no
 * answer or a 5xx, `ok` otherwise (any status below 500 is the service working: a 401 or 422 too). There is
 * no "unknown" for a quiet spell: its coming and going would tell a stranger when people start and stop using
 * the app. Nothing more is kept: no time, status or count, and a call the person abandoned is no failure.
 */
export type ServiceHealth = 'ok' | 'degraded';

type Last = { at: number; answered: boolean };
const holder = globalThis as unknown as { __serviceLast?: Last };

export function noteUpstreamCall(call: Pick<UpstreamCall, 'status' | 'error'>): void {
  if (call.error === 'aborted') return;
  holder.__serviceLast = { at: Date.now(), answered: call.status !== null && call.status < 500 };
}

export function serviceHealth(): ServiceHealth {
  const last = holder.__serviceLast;
  return last && !last.answered && Date.now() - last.at < SERVICE_RECENT_MS ? 'degraded' : 'ok';
}
