import 'server-only';
import { AppError } from '../http/app-error';

export type RangeLoadLimits = {
  /** Range loads (streams and exports) one session may run at once, its tabs and windows together. */
  perSession: number;
  /** Range loads one organisation may run at once, all its sessions together. */
  perOrganisation: number;
  /** How long a load over either limit waits for a turn before it is refused; 0: refused at once. */
  waitMs: number;
};

type Who = { sid: string; organisationId: string };
type Waiter = { who: Who; admit: () => void };
type Timers = { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };

/**
 * How many range loads run at once, per session and per organisation, in this process. A load over either
 * limit waits its turn in a short first-in first-out queue (a tab that moves to another range starts the new
 * load a moment before the old one is dropped); past `waitMs`, or when the queue already holds as many as
 * the limit itself, it is refused with 429 and a Retry-After. Each load's release must be called exactly
 * once, when its answer ends however it ends.
 */
export class RangeLoadAdmission {
  private readonly running = { session: new Map<string, number>(), organisation: new Map<string, number>() };
  private readonly queued = { session: new Map<string, number>(), organisation: new Map<string, number>() };
  private waiting: Waiter[] = [];
  readonly retryAfterS: number;

  constructor(
    readonly limits: RangeLoadLimits,
    private readonly timers: Timers = { setTimeout, clearTimeout },
  ) {
    this.retryAfterS = Math.max(1, Math.ceil(limits.waitMs / 1000));
  }

  /** Loads running now for this session and organisation (for tests and logs). */
  runningFor(who: Who): { session: number; organisation: number } {
    return {
      session: this.running.session.get(who.sid) ?? 0,
      organisation: this.running.organisation.get(who.organisationId) ?? 0,
    };
  }

  /**
   * Resolves with the load's release when it may start. Throws `too_many_loads` (429) when the session or the
   * organisation runs its most and no turn came within the wait, or the abort reason if `signal` aborts first.
   */
  async enter(who: Who, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    // A load that fits starts: whoever waits is held by its own session's limit, or by this organisation's,
    // which would hold this load too.
    const full = this.blockedBy(who);
    if (full === null) return this.start(who);
    const key = full === 'session' ? who.sid : who.organisationId;
    if (
      this.limits.waitMs === 0 ||
      (this.queued[full].get(key) ?? 0) >= this.limits[full === 'session' ? 'perSession' : 'perOrganisation']
    ) {
      throw this.refusal(full);
    }
    return new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = {
        who,
        // Counted as running before it resumes, so that the next waiter looked at sees it.
        admit: () => {
          leave();
          resolve(this.start(who));
        },
      };
      const leave = () => {
        this.timers.clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        this.waiting = this.waiting.filter((w) => w !== waiter);
        this.count(this.queued, who, -1);
      };
      const abort = () => {
        leave();
        reject(signal!.reason);
      };
      const timer = this.timers.setTimeout(() => {
        leave();
        reject(this.refusal(this.blockedBy(who) ?? full));
      }, this.limits.waitMs);
      this.waiting.push(waiter);
      this.count(this.queued, who, 1);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Which limit keeps this load waiting now, or null when it may start. */
  private blockedBy(who: Who): 'session' | 'organisation' | null {
    const now = this.runningFor(who);
    if (now.session >= this.limits.perSession) return 'session';
    if (now.organisation >= this.limits.perOrganisation) return 'organisation';
    return null;
  }

  private start(who: Who): () => void {
    this.count(this.running, who, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count(this.running, who, -1);
      // First come, first served among those that fit now: a session at its own limit does not hold up others.
      for (const waiter of [...this.waiting]) if (this.blockedBy(waiter.who) === null) waiter.admit();
    };
  }

  private count(counts: { session: Map<string, number>; organisation: Map<string, number> }, who: Who, by: 1 | -1) {
    for (const [map, key] of [
      [counts.session, who.sid],
      [counts.organisation, who.organisationId],
    ] as const) {
      const next = (map.get(key) ?? 0) + by;
      if (next === 0) map.delete(key);
      else map.set(key, next);
    }
  }

  private refusal(full: 'session' | 'organisation'): AppError {
    const wait = `try again in ${this.retryAfterS} s, when one has finished`;
    const message =
      full === 'session'
        ? `${this.limits.perSession} date ranges are already loading for this session (its tabs, windows and exports together); ${wait}`
        : `${this.limits.perOrganisation} date ranges are already loading for your organisation; ${wait}`;
    return new AppError('too_many_loads', message, { field: full, retryAfterS: this.retryAfterS });
  }
}
