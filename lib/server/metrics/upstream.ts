import 'server-only';
import type { UpstreamCall } from '../../batch-api';
import { metrics } from './registry';

/** An exchange as the metrics' `outcome`: the service answered (`ok`, `429`, `503`, `5xx`), or did not (`timeout`, `refused`). */
export function outcomeOf(call: Pick<UpstreamCall, 'status' | 'error'>): string | undefined {
  if (call.error === 'aborted') return undefined;
  if (call.error === 'timeout') return 'timeout';
  if (call.status === null) return 'refused';
  if (call.status === 429 || call.status === 503) return String(call.status);
  return call.status >= 500 ? '5xx' : 'ok';
}

/** Counts and times one exchange with the service; one the person abandoned says nothing of it. */
export function observeUpstreamCall(call: UpstreamCall): void {
  const outcome = outcomeOf(call);
  if (outcome === undefined) return;
  const labels = { operation: call.path.endsWith('/auth') ? 'auth' : 'batches', outcome };
  const m = metrics();
  m.upstreamRequests.inc(labels);
  m.upstreamDuration.observe(labels, call.durationMs / 1000);
}

/** One retry of an upstream request, by why the attempt before failed (unavailable, rate-limited, gateway, connection). */
export function countUpstreamRetry(reason: string): void {
  metrics().upstreamRetries.inc({ reason });
}
