import 'server-only';
import { AppError } from '../http/app-error';

/**
 * The instance's shutdown, shared by the custom server (which starts it on SIGTERM) and the routes (which
 * read it): once draining, readiness says so and new requests are refused; when the grace period ends,
 * `deadline` aborts, and the streams still running end with a line the browser resumes from.
 */
type Shutdown = { draining: boolean; deadline: AbortController };

// On globalThis: the custom server and Next's bundle each carry a copy of this module.
const holder = globalThis as unknown as { __shutdown?: Shutdown };
const state = (): Shutdown => (holder.__shutdown ??= { draining: false, deadline: new AbortController() });

/** Seconds a refused request is told to wait: about the time a load balancer needs to see this instance unready. */
export const DRAINING_RETRY_AFTER_S = 5;

export function isDraining(): boolean {
  return state().draining;
}

export function startDraining(): void {
  state().draining = true;
}

/** The grace period is over: whatever still runs on `untilShutdown` is stopped with a `shutting_down` error. */
export function endGrace(): void {
  const reason = new AppError('shutting_down', 'this server is restarting; try again to fetch what is missing', {
    field: 'server',
    retryAfterS: 1,
  });
  state().deadline.abort(reason);
}

/** `signal`, or the end of the grace period, whichever comes first (AbortSignal.any adds no listener to either). */
export function untilShutdown(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal, state().deadline.signal]);
}
