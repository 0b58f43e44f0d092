import 'server-only';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

type Options = ConstructorParameters<typeof RateLimiterMemory>[0];
type Key = string | number;
type Extra = { [key: string]: unknown };

/** Live keys one limiter holds at most. Measured at about 500 bytes a key: some 25 MB when full. */
const MAX_KEYS = 50_000;

/** The keys held are swept for ended windows at most this often while the limiter is full (each sweep reads them all). */
const SWEEP_MS = 1000;

/**
 * RateLimiterMemory with a bound on its keys. The library keeps each key in a plain Map until its window
 * or block ends (a timer per key) and has no size limit, so a flood of addresses or client IDs would grow
 * it without end; and evicting keys, as an LRU would, could drop a blocked one and so unlock it.
 *
 * So this never drops a key: while `maxKeys` keys are live, a key it does not hold yet is not counted by
 * this limiter (the call resolves as if the key were fresh) and `onFull` is told. Keys it holds keep
 * counting, blocked keys stay blocked until their block ends. Filling it takes `maxKeys` distinct clients
 * within one window; what they gain is uncounted attempts for further newcomers, which the other limits
 * (attempts per address, auth calls per client ID) still bound. Which keys are live it learns from the
 * library's public answers (each `RateLimiterRes` says when its key's window or block ends), not its insides.
 */
export class BoundedMemoryLimiter extends RateLimiterMemory {
  /** Each key held, and when its window or block ends (ms; Infinity: never). */
  readonly #ends = new Map<string, number>();
  #sweptAt = -Infinity;

  constructor(
    options: Options,
    private readonly maxKeys = MAX_KEYS,
    private readonly onFull: () => void = () => {},
  ) {
    super(options);
  }

  /** Live keys: those whose window or block has not ended. */
  get size(): number {
    this.#sweep(true);
    return this.#ends.size;
  }

  #sweep(always = false) {
    const now = Date.now();
    if (!always && now - this.#sweptAt < SWEEP_MS) return;
    this.#sweptAt = now;
    for (const [key, end] of this.#ends) if (end <= now) this.#ends.delete(key);
  }

  private holds(key: Key): boolean {
    const end = this.#ends.get(String(key));
    return end !== undefined && end > Date.now();
  }

  private hasRoom(key: Key): boolean {
    if (this.holds(key)) return true;
    if (this.#ends.size >= this.maxKeys) this.#sweep();
    if (this.#ends.size < this.maxKeys) return true;
    this.onFull();
    return false;
  }

  /** Notes when `key`'s window or block ends, from the library's answer (a refusal carries one too). */
  #noted(key: Key, answer: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
    const note = (res: unknown) => {
      if (!(res instanceof RateLimiterRes)) return;
      const ms = res.msBeforeNext;
      if (ms === 0) this.#ends.delete(String(key));
      else this.#ends.set(String(key), ms < 0 ? Infinity : Date.now() + ms);
    };
    return answer.then(
      (res) => (note(res), res),
      (error: unknown) => {
        note(error);
        throw error;
      },
    );
  }

  /** What a key this limiter cannot hold is answered: nothing consumed, every point left. */
  private uncounted(): Promise<RateLimiterRes> {
    return Promise.resolve(new RateLimiterRes(this.points, 0, 0, true));
  }

  consume(key: Key, points?: number, options?: Extra): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? this.#noted(key, super.consume(key, points, options)) : this.uncounted();
  }

  penalty(key: Key, points?: number, options?: Extra): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? this.#noted(key, super.penalty(key, points, options)) : this.uncounted();
  }

  /** Only for a key it holds: on a key whose window has ended the library would start at -points, a bonus. */
  reward(key: Key, points?: number, options?: Extra): Promise<RateLimiterRes> {
    return this.holds(key) ? this.#noted(key, super.reward(key, points, options)) : this.uncounted();
  }

  block(key: Key, secDuration: number): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? this.#noted(key, super.block(key, secDuration)) : this.uncounted();
  }

  set(key: Key, points: number, secDuration: number): Promise<RateLimiterRes> {
    return this.hasRoom(key) ? this.#noted(key, super.set(key, points, secDuration)) : this.uncounted();
  }

  delete(key: Key, options?: Extra): Promise<boolean> {
    this.#ends.delete(String(key));
    return super.delete(key, options);
  }
}
