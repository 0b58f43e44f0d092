import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { UpstreamCall } from '../batch-api';
import { logLine } from './log';
import { noteUpstreamCall } from './upstream-health';

/** What one request to our API did upstream, and for whom (ids only, never an e-mail address), for its log line. */
export type RequestStats = { upstreamCalls: number; upstreamMs: number; upstreamFailures: number; personId?: string; organisationId?: string };

const storage = new AsyncLocalStorage<RequestStats>();

/** Runs `work` with its own upstream counters (work started inside, streams included, counts here). */
export function withRequestStats<T>(work: (stats: RequestStats) => Promise<T>): Promise<T> {
  const stats: RequestStats = { upstreamCalls: 0, upstreamMs: 0, upstreamFailures: 0 };
  return storage.run(stats, () => work(stats));
}

/** Every upstream call of the server goes through here: the request's counters and the health record. */
export function recordUpstreamCall(call: UpstreamCall): void {
  noteUpstreamCall(call);
  // What the service (or a gateway) answered in a body that is not JSON never reaches the browser: it is here.
  if (call.rawBody !== undefined) {
    logLine('warn', 'upstream answered something that is not JSON', { method: call.method, path: call.path, status: call.status, body: call.rawBody });
  }
  const stats = storage.getStore();
  if (!stats) return;
  stats.upstreamCalls++;
  stats.upstreamMs += call.durationMs;
  // A call abandoned because the person left is no failure of the service.
  if (call.error !== 'aborted' && (call.status === null || call.status >= 500)) stats.upstreamFailures++;
}

/** Names the person and organisation this request is for, in its log line. */
export function noteRequestActor(personId: string, organisationId: string): void {
  const stats = storage.getStore();
  if (!stats) return;
  stats.personId = personId;
  stats.organisationId = organisationId;
}
