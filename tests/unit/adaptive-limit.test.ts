import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '@/lib/batch-api/adaptive-limit';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('AdaptiveLimit', () => {
  it('lets at most `limit` through and wakes the next waiter on release', async () => {
    const limit = new AdaptiveLimit(2);
    await limit.acquire();
    await limit.acquire();
    let third = false;
    const waiting = limit.acquire().then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    limit.release('ok');
    await waiting;
    expect(third).toBe(true);
  });

  /** One exchange that ends the way the service answered it. */
  const exchange = async (limit: AdaptiveLimit, outcome: 'ok' | 'limited' | 'failed') => {
    await limit.acquire();
    limit.release(outcome);
  };

  it('halves on 503 down to one, then grows back by one per run of successes', async () => {
    const limit = new AdaptiveLimit(8);
    await exchange(limit, 'failed');
    expect(limit.limit).toBe(4);
    await exchange(limit, 'failed');
    await exchange(limit, 'failed');
    await exchange(limit, 'failed');
    expect(limit.limit).toBe(1);
    for (let i = 0; i < 1; i++) {
      await limit.acquire();
      limit.release('ok');
    }
    expect(limit.limit).toBe(2);
    for (let i = 0; i < 2; i++) {
      await limit.acquire();
      limit.release('ok');
    }
    expect(limit.limit).toBe(3);
    for (let i = 0; i < 100; i++) {
      await limit.acquire();
      limit.release('ok');
    }
    expect(limit.limit).toBe(8);
  });

  it('a 429 drops the limit to the requests the service still carries, and it probes again only slowly', async () => {
    const limit = new AdaptiveLimit(8);
    for (let i = 0; i < 8; i++) await limit.acquire();
    // A service that carries three at once: five of the eight come back 429, one after the other.
    for (let i = 0; i < 5; i++) limit.release('limited');
    expect(limit.limit).toBe(3);
    // At the ceiling a 429 showed, one more is tried only after a run eight times the limit.
    for (let i = 0; i < 3; i++) limit.release('ok');
    expect(limit.limit).toBe(3);
    for (let i = 0; i < 20; i++) await exchange(limit, 'ok');
    expect(limit.limit).toBe(3); // 23 successes
    await exchange(limit, 'ok');
    expect(limit.limit).toBe(4); // the 24th: 8 × 3
    await limit.acquire();
    await limit.acquire();
    await limit.acquire();
    await limit.acquire();
    limit.release('limited'); // the fourth was one too many: back to what was carried
    expect(limit.limit).toBe(3);
  });

  it('below a known ceiling (after a 503 halved it) the limit grows back at the usual pace', async () => {
    const limit = new AdaptiveLimit(8);
    for (let i = 0; i < 6; i++) await limit.acquire();
    limit.release('limited'); // five still in flight: the ceiling is 5
    expect(limit.limit).toBe(5);
    for (let i = 0; i < 5; i++) limit.release('ok');
    await exchange(limit, 'failed');
    expect(limit.limit).toBe(2);
    for (let i = 0; i < 2; i++) await exchange(limit, 'ok');
    expect(limit.limit).toBe(3);
  });

  it('a request that keeps its slot for a retry is heard without giving the slot back; a retry queues first', async () => {
    const limit = new AdaptiveLimit(4);
    for (let i = 0; i < 4; i++) await limit.acquire();
    limit.note('failed'); // a 503: the limit halves, the four in flight stay in flight
    expect(limit.limit).toBe(2);
    const order: string[] = [];
    const first = limit.acquire().then(() => order.push('first try'));
    const retry = limit.acquire(undefined, { retry: true }).then(() => order.push('retry'));
    for (let i = 0; i < 3; i++) limit.release('ok');
    await Promise.all([first, retry]);
    expect(order).toEqual(['retry', 'first try']);
  });

  it('a waiter leaves when its signal aborts', async () => {
    const limit = new AdaptiveLimit(1);
    await limit.acquire();
    const abort = new AbortController();
    const waiting = limit.acquire(abort.signal);
    abort.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    limit.release('ok');
    await limit.acquire();
  });

  it('refuses a ceiling below one', () => {
    expect(() => new AdaptiveLimit(0)).toThrow(/max/);
  });

  it('refuses a start above the most it may grow to', () => {
    expect(() => new AdaptiveLimit(8, { max: 4 })).toThrow(/start ≤ max/);
  });
});

describe('AdaptiveLimit finding its own level from exchange times (given, no clock)', () => {
  /** `count` exchanges at once, each answered `ok` in `ms`. */
  const round = async (limit: AdaptiveLimit, count: number, ms: number) => {
    for (let i = 0; i < count; i++) await limit.acquire();
    for (let i = 0; i < count; i++) limit.release('ok', ms);
  };

  it('grows from the start to the most while exchanges take as long as at the start, and no further', async () => {
    const limit = new AdaptiveLimit(8, { max: 32 });
    await round(limit, 8, 40); // the pace at the start
    expect(limit.limit).toBe(8);
    await round(limit, 8, 41); // a full window, found flat: one more per success from here
    expect(limit.limit).toBeGreaterThan(8);
    for (let i = 0; i < 10; i++) await round(limit, limit.limit, 42);
    expect(limit.limit).toBe(32);
    expect(limit.latency).toEqual({ baselineMs: 40, recentMs: 42 });
  });

  it('never grows past the start without exchange times (a caller that does not time them)', async () => {
    const limit = new AdaptiveLimit(8, { max: 32 });
    for (let i = 0; i < 20; i++) await round(limit, 8, undefined as unknown as number);
    expect(limit.limit).toBe(8);
  });

  it('steps back by a quarter when exchanges slow down markedly, not below the start, and then probes slowly', async () => {
    const limit = new AdaptiveLimit(8, { max: 32 });
    await round(limit, 8, 40);
    while (limit.limit < 20) await round(limit, 4, 40);
    const grown = limit.limit;
    // 90 > 1.5 × 40 + 5: more at once only queue. Once most of the last 8 took that long, a quarter less.
    await round(limit, 8, 90);
    expect(limit.limit).toBeLessThan(grown);
    expect(limit.limit).toBeGreaterThanOrEqual(Math.floor((grown * 3) / 4));
    const stepped = limit.limit;
    // Flat again: growth resumes, but past the level where latency rose only after runs 8× the limit.
    await round(limit, 8, 40);
    await round(limit, 8, 40);
    expect(limit.limit).toBe(stepped);
    for (let i = 0; i < 20; i++) await round(limit, 8, 40);
    expect(limit.limit).toBe(stepped + 1);
  });

  it('a slow service from the start keeps the start level: latency only governs growth', async () => {
    const limit = new AdaptiveLimit(8, { max: 32 });
    await round(limit, 8, 40);
    for (let i = 0; i < 10; i++) await round(limit, 8, 200);
    expect(limit.limit).toBe(8);
  });

  it('a 429 while growing drops to what the service carried and ends the fast growth', async () => {
    const limit = new AdaptiveLimit(8, { max: 32 });
    await round(limit, 8, 40);
    while (limit.limit < 16) await round(limit, 4, 40);
    for (let i = 0; i < 16; i++) await limit.acquire();
    for (let i = 0; i < 4; i++) limit.release('limited'); // carried 12
    expect(limit.limit).toBe(12);
    for (let i = 0; i < 12; i++) limit.release('ok', 40);
    // At the ceiling a 429 showed: one more only after 8 × 12 successes.
    for (let i = 0; i < 83; i++) await round(limit, 1, 40);
    expect(limit.limit).toBe(12);
    await round(limit, 1, 40);
    expect(limit.limit).toBe(13);
  });

  it('a 503 while growing halves it; growth is then one per run as long as the limit', async () => {
    const limit = new AdaptiveLimit(8, { max: 32 });
    await round(limit, 8, 40);
    while (limit.limit < 20) await round(limit, 4, 40);
    await limit.acquire();
    limit.release('failed');
    expect(limit.limit).toBe(10);
    await round(limit, 9, 40);
    expect(limit.limit).toBe(10);
    await round(limit, 1, 40);
    expect(limit.limit).toBe(11);
  });

  it('whatever the service answers, the limit stays between one and the most, and in flight never passes it', () => {
    const event = fc.oneof(
      fc.record({ kind: fc.constant('acquire' as const) }),
      fc.record({
        kind: fc.constantFrom('ok' as const, 'limited' as const, 'failed' as const),
        ms: fc.integer({ min: 1, max: 500 }),
      }),
    );
    return fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 24 }),
        fc.array(event, { maxLength: 300 }),
        async (start, extra, events) => {
          const limit = new AdaptiveLimit(start, { max: start + extra });
          let inFlight = 0;
          for (const e of events) {
            if (e.kind === 'acquire') {
              if (inFlight >= limit.limit) continue; // would wait
              await limit.acquire();
              inFlight++;
            } else if (inFlight > 0) {
              limit.release(e.kind, e.ms);
              inFlight--;
            }
            expect(limit.limit).toBeGreaterThanOrEqual(1);
            expect(limit.limit).toBeLessThanOrEqual(start + extra);
          }
        },
      ),
      { seed: 16, numRuns: 200 },
    );
  });
});
