/**
 * A bounded queue between producers and one reader: a producer waits while `capacity` items are unread, so a
 * slow reader slows the producers down. Closing ends the stream once drained; a failure is thrown to the
 * reader after the items put before it, and refuses every later put.
 */
export class Channel<T> {
  private items: T[] = [];
  private closed = false;
  private error: { reason: unknown } | undefined;
  private reader: (() => void) | undefined;
  private writers: (() => void)[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity: must be a whole number of at least 1');
  }

  /** Waits for room, then queues `item`. Throws the signal's reason once it is aborted (nobody would read it). */
  async put(item: T, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    while (this.items.length >= this.capacity) {
      await new Promise<void>((resolve) => this.writers.push(resolve));
      signal.throwIfAborted();
    }
    this.items.push(item);
    this.notify();
  }

  /** The next item; undefined once closed and drained. Items put before a failure are still given out first. */
  async take(): Promise<T | undefined> {
    for (;;) {
      if (this.items.length) {
        const item = this.items.shift()!;
        for (const w of this.writers.splice(0)) w();
        return item;
      }
      if (this.error) throw this.error.reason;
      if (this.closed) return undefined;
      await new Promise<void>((resolve) => (this.reader = resolve));
    }
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  /** The first failure wins; waiting writers wake (their signal tells them to stop), the reader learns after draining. */
  fail(reason: unknown): void {
    this.error ??= { reason };
    for (const w of this.writers.splice(0)) w();
    this.notify();
  }

  private notify() {
    const reader = this.reader;
    this.reader = undefined;
    reader?.();
  }
}
