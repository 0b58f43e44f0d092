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
});
