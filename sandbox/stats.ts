/**
 * The sandbox's request counters, in a module of their own so that the server (which counts) and the
 * control routes (which report and reset) both depend on it instead of on each other.
 */
export type SandboxStats = {
  authRequests: number;
  /** Successful token grants per organisation id. */
  tokensIssuedByOrg: Record<string, number>;
  batchRequests: number;
  faultsServed: number;
  /** Batch requests being answered right now (all organisations). */
  batchInFlight: number;
  /** The most batch requests in flight at once since the counters were reset: the concurrency a client reached. */
  batchInFlightPeak: number;
  /**
   * Milliseconds with at least one batch request in flight, and the integral of requests in flight over them:
   * their quotient is the average concurrency while the service was busy (see averageInFlight).
   */
  batchBusyMs: number;
  batchInFlightMs: number;
};

export function emptyStats(): SandboxStats {
  return {
    authRequests: 0,
    tokensIssuedByOrg: {},
    batchRequests: 0,
    faultsServed: 0,
    batchInFlight: 0,
    batchInFlightPeak: 0,
    batchBusyMs: 0,
    batchInFlightMs: 0,
  };
}

/** Average batch requests in flight while at least one was (0 before any). */
export function averageInFlight(stats: SandboxStats): number {
  return stats.batchBusyMs > 0 ? stats.batchInFlightMs / stats.batchBusyMs : 0;
}

/**
 * Counts batch requests in flight over time. `now` is injectable; the server passes performance.now.
 * A request ending after a reset of the counters is not taken off the new ones below zero.
 */
export class InFlightMeter {
  private since: number;
  constructor(private readonly now: () => number) {
    this.since = now();
  }

  private advance(stats: SandboxStats) {
    const at = this.now();
    if (stats.batchInFlight > 0) {
      stats.batchBusyMs += at - this.since;
      stats.batchInFlightMs += (at - this.since) * stats.batchInFlight;
    }
    this.since = at;
  }

  start(stats: SandboxStats) {
    this.advance(stats);
    stats.batchInFlight++;
    stats.batchInFlightPeak = Math.max(stats.batchInFlightPeak, stats.batchInFlight);
  }

  end(stats: SandboxStats) {
    this.advance(stats);
    stats.batchInFlight = Math.max(0, stats.batchInFlight - 1);
  }
}
