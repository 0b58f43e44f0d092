/** How one HTTP exchange went, as far as the service's load is concerned. */
export type GateOutcome =
  /** An answer (2xx, or a 4xx about the request itself). */
  | 'ok'
  /** 429: more requests at once than the service (or its gateway) allows. */
  | 'limited'
  /** 503, a gateway's 502 or 504, a dropped connection: the service is struggling. */
  | 'failed'
  /** The request was abandoned (the person left): nothing learned about the service. */
  | 'cancelled';

/**
 * Held by a request while it talks to the service: from its first exchange to its last, through the waits
 * between retries after a failure, but given back while it waits out a 429 (the limit has learned what the
 * service carries, and the request queues again, ahead of first tries).
 */
export interface ConcurrencyGate {
  /** `retry`: the request comes back after a 429's wait, and goes ahead of those not tried yet. */
  acquire(signal?: AbortSignal, options?: { retry?: boolean }): Promise<void>;
  /** `exchangeMs`: how long the last exchange took (request sent to body read), for an `ok`. */
  release(outcome: GateOutcome, exchangeMs?: number): void;
  /** How an exchange went, told while the slot is kept for the retry. */
  note(outcome: GateOutcome, exchangeMs?: number): void;
}

export type AdaptiveLimitOptions = {
  /** The most it may grow to while the service keeps answering as fast as at the start. Default: the start. */
  max?: number;
};

/** Exchange times compared: the first this many make the level at the start, then the last this many. */
const LATENCY_WINDOW = 8;
/** Latency has risen markedly when the recent median exceeds the start's by this factor plus RISE_MS. */
const RISE_FACTOR = 1.5;
/** Absolute slack on top of RISE_FACTOR: on a service answering in 2 ms, jitter alone is 50 %. */
const RISE_MS = 5;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * How many requests may be in flight, adapted to the service. Its rate limits are not published, so it starts
 * at a setting, may grow up to another, and the floor is one request at a time:
 * - while exchanges take as long as they did at the start (the median of the last LATENCY_WINDOW against that
 *   of the first) and nothing failed, it grows by one per success: doubling every round trip, as TCP's slow
 *   start does. When the latency rises markedly, more requests only queue somewhere (the service, or our own
 *   CPU): it steps back by a quarter, not below the start, and remembers that level as a ceiling;
 * - a 429 says how much it carries: the limit drops to the requests still in flight (which it accepted), and
 *   that level is remembered as the service's ceiling;
 * - a 503 or a gateway error says it struggles: the limit halves;
 * - after either, or past the start without a latency measure, growth is by one after a run of successes as
 *   long as the limit; past a ceiling, only after a run eight times as long, since each probe there costs one
 *   request a Retry-After of waiting (or a round of slower answers). A probe past the ceiling that holds
 *   forgets it (the limit was a burst, or it was raised): growth is as usual again.
 * Exchange times come from the caller (release's `exchangeMs`): no clock in here.
 */
export class AdaptiveLimit implements ConcurrencyGate {
  private inFlight = 0;
  private successes = 0;
  /** The most requests the service carried when it last answered 429, or where latency rose (Infinity: never). */
  private ceiling = Infinity;
  private waiting: (() => void)[] = [];
  /** Growing by one per success: nothing has pushed back yet. */
  private slowStart = true;
  /** Median exchange time of the first LATENCY_WINDOW successes: the service's pace before we pushed it. */
  private baselineMs: number | undefined;
  private firstMs: number[] = [];
  /** Exchange times since the limit last stepped back (at most LATENCY_WINDOW, oldest first). */
  private recentMs: number[] = [];
  /** Exchanges started before the last step back, still to come in: their times say nothing of the new level. */
  private stale = 0;
  limit: number;
  readonly max: number;

  /** @param start requests allowed at first (BATCH_API_CONCURRENCY); `options.max` the most it may grow to. */
  constructor(
    readonly start: number,
    options: AdaptiveLimitOptions = {},
  ) {
    const max = options.max ?? start;
    if (!Number.isInteger(start) || !Number.isInteger(max) || start < 1 || max < start) {
      throw new RangeError('start and max: must be whole numbers with 1 ≤ start ≤ max');
    }
    this.limit = start;
    this.max = max;
  }

  /** Requests holding a slot now (for metrics). */
  get running(): number {
    return this.inFlight;
  }

  /** Median time of the recent exchanges against the start's, once both are known (for benches and logs). */
  get latency(): { baselineMs?: number; recentMs?: number } {
    return { baselineMs: this.baselineMs, recentMs: this.recentMs.length ? median(this.recentMs) : undefined };
  }

  /**
   * Resolves when a request may start; every acquire must be followed by exactly one release. A retry waits
   * ahead of first tries: it has waited already.
   */
  async acquire(signal?: AbortSignal, options: { retry?: boolean } = {}): Promise<void> {
    signal?.throwIfAborted();
    if (this.inFlight < this.limit) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', abort);
        this.inFlight++;
        resolve();
      };
      const abort = () => {
        this.waiting = this.waiting.filter((w) => w !== wake);
        reject(signal!.reason);
      };
      if (options.retry) this.waiting.unshift(wake);
      else this.waiting.push(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  release(outcome: GateOutcome, exchangeMs?: number): void {
    this.inFlight--;
    this.note(outcome, exchangeMs);
    while (this.inFlight < this.limit && this.waiting.length > 0) this.waiting.shift()!();
  }

  note(outcome: GateOutcome, exchangeMs?: number): void {
    if (outcome === 'limited') {
      this.pushedBack();
      this.limit = Math.max(1, Math.min(this.limit - 1, this.inFlight));
      this.ceiling = this.limit;
    } else if (outcome === 'failed') {
      this.pushedBack();
      this.limit = Math.max(1, Math.floor(this.limit / 2));
    } else if (outcome === 'ok') {
      if (exchangeMs !== undefined && this.heard(exchangeMs)) return;
      if (this.limit >= this.max) return;
      // Past the start, growth needs a full window of exchange times, found flat (see heard()).
      if (this.limit >= this.start && (this.recentMs.length < LATENCY_WINDOW || this.risen())) return;
      const run = this.slowStart ? 1 : this.limit * (this.limit >= this.ceiling ? 8 : 1);
      if (++this.successes < run) return;
      this.successes = 0;
      if (this.limit > this.ceiling) this.ceiling = Infinity;
      this.limit++;
    }
  }

  private risen(): boolean {
    return this.baselineMs === undefined || median(this.recentMs) > this.baselineMs * RISE_FACTOR + RISE_MS;
  }

  private pushedBack() {
    this.successes = 0;
    this.slowStart = false;
  }

  /**
   * Takes one exchange time in. Returns true when it showed the latency has risen markedly since the start
   * and the limit stepped back (the success then does not count towards growth).
   */
  private heard(ms: number): boolean {
    if (this.stale > 0) {
      this.stale--;
      return false;
    }
    if (this.baselineMs === undefined) {
      this.firstMs.push(ms);
      if (this.firstMs.length === LATENCY_WINDOW) this.baselineMs = median(this.firstMs);
      return false;
    }
    this.recentMs.push(ms);
    if (this.recentMs.length > LATENCY_WINDOW) this.recentMs.shift();
    if (this.recentMs.length < LATENCY_WINDOW || !this.risen() || this.limit <= this.start) return false;
    this.recentMs = [];
    this.pushedBack();
    this.limit = Math.max(this.start, Math.floor((this.limit * 3) / 4));
    this.ceiling = this.limit;
    this.stale = this.inFlight;
    return true;
  }
}
