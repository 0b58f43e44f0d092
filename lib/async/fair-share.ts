/**
 * A pool of `total` slots shared among keys (organisations), none holding more than `perKey` at once. When a
 * slot frees, the keys waiting take turns (round robin), whatever the length of each one's queue: a key
 * with hundreds of requests waiting does not make the next key's single request wait behind them. Within a
 * key, first come first served, except `first` requests (a token fetch others wait for) go ahead.
 */
export class FairShare {
  private inUse = 0;
  private readonly held = new Map<string, number>();
  /** Waiting requests per key; the map's order is the round robin's (a served key moves to the back). */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    readonly total: number,
    readonly perKey: number,
  ) {
    if (!Number.isInteger(total) || !Number.isInteger(perKey) || total < 1 || perKey < 1 || perKey > total) {
      throw new RangeError('total and perKey: whole numbers with 1 ≤ perKey ≤ total');
    }
  }

  /** Resolves with the slot's release (call it exactly once) when `key` may start; rejects if `signal` aborts first. */
  async acquire(key: string, signal?: AbortSignal, { first = false } = {}): Promise<() => void> {
    signal?.throwIfAborted();
    if (!this.waiting.has(key) && this.fits(key)) return this.grant(key);
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const abort = () => {
        const queue = this.waiting.get(key);
        const at = queue?.indexOf(wake) ?? -1;
        if (at >= 0) queue!.splice(at, 1);
        if (queue?.length === 0) this.waiting.delete(key);
        reject(signal!.reason);
      };
      const queue = this.waiting.get(key) ?? [];
      if (first) queue.unshift(wake);
      else queue.push(wake);
      this.waiting.set(key, queue);
      signal?.addEventListener('abort', abort, { once: true });
    });
    return this.grant(key, false);
  }

  /** Slots held by `key` now (for tests and logs). */
  holding(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** Requests of `key` waiting for a slot (for tests and logs). */
  queued(key: string): number {
    return this.waiting.get(key)?.length ?? 0;
  }

  private fits(key: string): boolean {
    return this.inUse < this.total && this.holding(key) < this.perKey;
  }

  /** Counts the slot as `key`'s (unless dispatch already has: `count` false) and returns its one-time release. */
  private grant(key: string, count = true): () => void {
    if (count) this.take(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse--;
      const left = this.holding(key) - 1;
      if (left === 0) this.held.delete(key);
      else this.held.set(key, left);
      this.dispatch();
    };
  }

  private take(key: string) {
    this.inUse++;
    this.held.set(key, this.holding(key) + 1);
  }

  /** Hands free slots to waiting keys in turn, each key at most one a round, none past `perKey`. */
  private dispatch() {
    let progress = true;
    while (this.inUse < this.total && progress) {
      progress = false;
      for (const [key, queue] of [...this.waiting]) {
        if (this.inUse >= this.total) break;
        if (this.holding(key) >= this.perKey) continue;
        const wake = queue.shift()!;
        this.waiting.delete(key);
        // Served: to the back of the round robin, if it still waits.
        if (queue.length > 0) this.waiting.set(key, queue);
        this.take(key);
        wake();
        progress = true;
      }
    }
  }
}
