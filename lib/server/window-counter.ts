/** Keys kept at most; the oldest go first, so a flood of addresses cannot grow memory without bound. */
const MAX_KEYS = 10_000;

/** Counts events per key in fixed windows; `hit` says how long to wait once a key is over its limit. */
export class WindowCounter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under its limit. */
  waitS(key: string): number {
    const w = this.current(key);
    return w && w.count >= this.limit ? Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000)) : 0;
  }

  hit(key: string): void {
    const w = this.current(key);
    if (w) w.count++;
    else {
      if (this.windows.size >= MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
      this.windows.set(key, { start: this.now(), count: 1 });
    }
  }

  private current(key: string) {
    const w = this.windows.get(key);
    if (w && this.now() - w.start >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }
}
