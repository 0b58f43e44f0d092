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
  release(outcome: GateOutcome): void;
  /** How an exchange went, told while the slot is kept for the retry. */
  note(outcome: GateOutcome): void;
}

/**
 * How many requests may be in flight, adapted to the service. Its rate limits are not published, so the
 * ceiling is a setting and the floor is one request at a time:
 * - a 429 says how much it carries: the limit drops to the requests still in flight (which it accepted), and
 *   that level is remembered as the service's ceiling;
 * - a 503 or a gateway error says it struggles: the limit halves;
 * - after a run of successes as long as the limit, it grows by one; past a ceiling a 429 showed, only after a
 *   run eight times as long, since each probe there costs one request a Retry-After of waiting. A probe past
 *   the ceiling that holds forgets it (the limit was a burst, or it was raised): growth is as usual again.
 */
export class AdaptiveLimit implements ConcurrencyGate {
  private inFlight = 0;
  private successes = 0;
  /** The most requests the service carried when it last answered 429 (Infinity: it never has). */
  private ceiling = Infinity;
  private waiting: (() => void)[] = [];
  limit: number;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('max: must be a whole number of at least 1');
    this.limit = max;
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

  release(outcome: GateOutcome): void {
    this.inFlight--;
    this.note(outcome);
    while (this.inFlight < this.limit && this.waiting.length > 0) this.waiting.shift()!();
  }

  note(outcome: GateOutcome): void {
    if (outcome === 'limited') {
      this.successes = 0;
      this.limit = Math.max(1, Math.min(this.limit - 1, this.inFlight));
      this.ceiling = this.limit;
    } else if (outcome === 'failed') {
      this.successes = 0;
      this.limit = Math.max(1, Math.floor(this.limit / 2));
    } else if (outcome === 'ok' && this.limit < this.max && ++this.successes >= this.limit * (this.limit >= this.ceiling ? 8 : 1)) {
      this.successes = 0;
      if (this.limit > this.ceiling) this.ceiling = Infinity;
      this.limit++;
    }
  }
}
