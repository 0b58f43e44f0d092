/**
 * Hands work to a fixed number of workers from a source that can grow while they run (a worker may add work
 * for the others). A worker with nothing to take waits until work appears or nothing is in progress anywhere,
 * which is the end. `idle` tells a busy worker how many others wait for work, so it can share its own.
 */
export class Workers<T> {
  idle = 0;
  private sleepers: (() => void)[] = [];

  constructor(
    /** The next piece of work, marked as in progress by the caller; undefined when none is queued. */
    private readonly take: () => T | undefined,
    /** True when no piece of work is in progress. */
    private readonly nothingActive: () => boolean,
  ) {}

  /** The next piece of work for this worker, or undefined once all work is done. */
  async next(signal: AbortSignal): Promise<T | undefined> {
    for (;;) {
      signal.throwIfAborted();
      const work = this.take();
      if (work !== undefined) return work;
      if (this.nothingActive()) {
        this.wake();
        return undefined;
      }
      this.idle++;
      await new Promise<void>((resolve) => this.sleepers.push(resolve));
      this.idle--;
    }
  }

  /** Work was added or finished: waiting workers look again. */
  wake(): void {
    for (const wake of this.sleepers.splice(0)) wake();
  }
}
