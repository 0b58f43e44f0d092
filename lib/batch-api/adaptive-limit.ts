/**
 * How many requests may be in flight, adapted to the service: halved when it answers 503 (it is struggling),
 * grown back by one after a run of successes (additive increase, multiplicative decrease). The service's
 * rate limits are not published, so the ceiling is a setting and the floor is one request at a time.
 */
export class AdaptiveLimit {
  private inFlight = 0;
  private successes = 0;
  private waiting: (() => void)[] = [];
  limit: number;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('max: must be a whole number of at least 1');
    this.limit = max;
  }

  /** Resolves when a request may start; every acquire must be followed by exactly one release. */
  async acquire(signal?: AbortSignal): Promise<void> {
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
      this.waiting.push(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  release(outcome: 'ok' | 'failed'): void {
    this.inFlight--;
    if (outcome === 'ok' && this.limit < this.max && ++this.successes >= this.limit) {
      this.successes = 0;
      this.limit++;
    }
    while (this.inFlight < this.limit && this.waiting.length > 0) this.waiting.shift()!();
  }

  /** The service answered 503 (or dropped the connection): fewer requests at once from now on. */
  backOff(): void {
    this.successes = 0;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
  }
}
