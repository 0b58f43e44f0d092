import 'server-only';
import { RateLimiterQueue, RateLimiterQueueError, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './app-error';

/**
 * At most `limiter.points` upstream auth calls a second per client ID (for every instance together when
 * the limiter lives in Redis). A sign-in over that rate waits its turn in a first-in first-out queue of
 * at most `2 × rate` per client ID and instance, so about two seconds; when that queue is full, or the turn
 * does not come within `waitS`, it gets 429 with a Retry-After of a second or two. Nothing is counted per
 * client ID beyond this one-second window: failures of others never lock an organisation out.
 *
 * rate-limiter-flexible's RateLimiterQueue keeps one internal queue per key for good, and looks keys up in a
 * plain object (a client ID like `__proto__` would break it): so there is one RateLimiterQueue per client ID
 * here, under a prefixed key, dropped as soon as nobody waits in it.
 */
export class ClientQueue {
  private readonly queues = new Map<string, { queue: RateLimiterQueue; users: number }>();
  readonly maxWaiting: number;
  readonly retryAfterS: number;

  constructor(
    private readonly limiter: RateLimiterAbstract,
    private readonly waitS = 3,
  ) {
    this.maxWaiting = 2 * limiter.points;
    this.retryAfterS = Math.max(1, Math.ceil(this.maxWaiting / limiter.points));
  }

  /** Resolves when this client ID may call the auth endpoint; throws `too_many_attempts` when it may not. */
  async take(clientId: string): Promise<void> {
    const key = `id:${clientId}`;
    let entry = this.queues.get(key);
    if (!entry) {
      entry = { queue: new RateLimiterQueue(this.limiter, { maxQueueSize: this.maxWaiting }), users: 0 };
      this.queues.set(key, entry);
    }
    entry.users++;
    try {
      await entry.queue.removeTokens(1, key, Math.floor(Date.now() / 1000) + this.waitS);
    } catch (error) {
      if (!(error instanceof RateLimiterQueueError)) throw error;
      throw new AppError('too_many_attempts', `too many sign-ins for this client ID at once; try again in ${this.retryAfterS} s`, {
        field: 'clientId',
        retryAfterS: this.retryAfterS,
      });
    } finally {
      if (--entry.users === 0) this.queues.delete(key);
    }
  }

  /** Client IDs with someone waiting or being let through right now (for tests: nothing is left behind). */
  get activeClientIds(): number {
    return this.queues.size;
  }
}
