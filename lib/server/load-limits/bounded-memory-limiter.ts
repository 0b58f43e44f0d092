import 'server-only';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

type Options = ConstructorParameters<typeof RateLimiterMemory>[0];
type Key = string | number;
type Extra = { [key: string]: unknown };

/** Live keys one limiter holds at most. Measured at about 500 bytes a key: some 25 MB when full. */
const MAX_KEYS = 50_000;

/**
 * RateLimiterMemory with a bound on its keys. The library keeps each key in a plain Map until its window
 * or block ends (a timer per key) and has no size limit, so a flood of addresses or client IDs would grow
 * it without end; and evicting keys, as an LRU would, could drop a blocked one and so unlock it.
 *
 * So this never drops a key: while `maxKeys` keys are live, a key it does not hold yet is not counted by
 * this limiter (the call resolves as if the key were fresh) and `onFull` is told. Keys it holds keep
 * counting, blocked keys stay blocked until their block ends. Filling it takes `maxKeys` distinct clients
 * within one window; what they gain is uncounted attempts for further newcomers, which the other limits
 * (attempts per address, auth calls per client ID) still bound. It reads the size of the library's Map
 * (`_memoryStorage._storage`, rate-limiter-flexible 11.4.0): tests/unit/bounded-memory-limiter.test.ts
 * fails if that changes.
 */
export class BoundedMemoryLimiter extends RateLimiterMemory {
  constructor(
    options: Options,
    private readonly maxKeys = MAX_KEYS,
    private readonly onFull: () => void = () => {},
  ) {
    super(options);
  }

  /** Live keys: the library deletes each one by timer when its window or block ends. */
  get size(): number {
    return this.storage().size;
  }

  private storage(): Map<string, unknown> {
    return (this as unknown as { _memoryStorage: { _storage: Map<string, unknown> } })._memoryStorage._storage;
  }

  private holds(key: Key): boolean {
    return this.storage().has(String(this.getKey(key)));
  }

  private hasRoom(key: Key): boolean {
    if (this.holds(key) || this.storage().size < this.maxKeys) return true;
    this.onFull();
    return false;
  }

  /** What a key this limiter cannot hold is answered: nothing consumed, every point left. */
  private uncounted(): Promise<RateLimiterRes> {
    return Promise.resolve(new RateLimiterRes(this.points, 0, 0, true));
  }

  consume(key: Key, points?: number, options?: Extra): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? super.consume(key, points, options) : this.uncounted();
  }

  penalty(key: Key, points?: number, options?: Extra): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? super.penalty(key, points, options) : this.uncounted();
  }

  /** Only for a key it holds: on a key whose window has ended the library would start at -points, a bonus. */
  reward(key: Key, points?: number, options?: Extra): Promise<RateLimiterRes> {
    return this.holds(key) ? super.reward(key, points, options) : this.uncounted();
  }

  block(key: Key, secDuration: number): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? super.block(key, secDuration) : this.uncounted();
  }

  set(key: Key, points: number, secDuration: number): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? super.set(key, points, secDuration) : this.uncounted();
  }
}
