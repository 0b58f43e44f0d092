import 'server-only';
import type { UpstreamCall } from '../batch-api';

/** The last call to the Batch Data Service: whether it answered, and how. No path, query or credential. */
export type UpstreamHealth = { at: string; answered: boolean; status: number | null; durationMs: number };

const holder = globalThis as unknown as { __upstreamHealth?: UpstreamHealth };

/** An answer with a status below 500 counts as answered (a 401 or 422 is the service working). */
export function noteUpstreamCall(call: UpstreamCall): void {
  holder.__upstreamHealth = {
    at: new Date().toISOString(),
    answered: call.status !== null && call.status < 500,
    status: call.status,
    durationMs: Math.round(call.durationMs),
  };
}

export function lastUpstreamCall(): UpstreamHealth | null {
  return holder.__upstreamHealth ?? null;
}
