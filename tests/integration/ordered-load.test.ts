import { describe, expect, it } from 'vitest';
import { OrderedLoad } from '@/lib/batch-api/ordered-load';
import type { DateRange } from '@/lib/contract';
import { demoClient } from '../helpers/client';
import { control, sandboxForFile, tokenFor, walkV2 } from '../helpers/sandbox';

/**
 * OrderedLoad against the sandbox over real HTTP: exactly the batches of a sequential cursor walk, in its
 * order (the sandbox answers in creation order, ties by batch_id), whatever the faults on the way.
 */
const sandbox = sandboxForFile({ batches: 4000, pageSize: 50 });
const NOW = Date.parse('2026-06-01T00:00:00Z');

async function reference(range: DateRange = {}) {
  const query = Object.fromEntries(Object.entries(range).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return (await walkV2(sandbox(), await tokenFor(sandbox()), query)).batches.map((b) => b.batch_id);
}

async function load(range: DateRange = {}, concurrency = 8) {
  const ordered = new OrderedLoad(demoClient(sandbox()), range, { concurrency, now: () => NOW });
  const ids: string[] = [];
  for await (const chunk of ordered.chunks()) for (const b of chunk) ids.push(b.batch_id);
  return { ids, ordered };
}

describe('OrderedLoad against the sandbox', () => {
  it('the whole history: the sequential walk, batch for batch, in fewer round trips', async () => {
    const want = await reference();
    await control(sandbox(), 'POST', '/_sandbox/reset');
    const { ids, ordered } = await load();
    expect(ids).toEqual(want);
    const { batchRequests } = (await control(sandbox(), 'GET', '/_sandbox/stats')) as { batchRequests: number };
    expect(batchRequests).toBe(ordered.requests);
    expect(batchRequests).toBeLessThan((want.length / 50) * 1.5);
  });

  it('ranges whose bounds fall on batches (seams at their instants), and open starts and ends', async () => {
    const all = (await walkV2(sandbox(), await tokenFor(sandbox()))).batches;
    const at = (i: number) => all[i]!.batch_creation_date;
    const ranges: DateRange[] = [
      { start_date: at(321), end_date: at(3210) },
      { end_date: at(2500) },
      { start_date: at(1500) },
      { start_date: at(10), end_date: at(40) },
    ];
    for (const range of ranges) expect((await load(range, 3)).ids).toEqual(await reference(range));
  });

  it('429s and 503s mid-way are retried: still every batch once, in order', async () => {
    const want = await reference();
    await control(sandbox(), 'POST', '/_sandbox/faults', {
      rateLimitConcurrent: 3,
      rateLimitRetryAfterS: 0,
      fail503Every: 9,
      retryAfterS: 0,
    });
    const { ids } = await load({}, 8);
    expect(ids).toEqual(want);
    const { faultsServed } = (await control(sandbox(), 'GET', '/_sandbox/stats')) as { faultsServed: number };
    expect(faultsServed).toBeGreaterThan(0);
  });

  it('a failure mid-way ends the load with its error; only batches in order came before it', async () => {
    const want = await reference();
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 5 });
    const ordered = new OrderedLoad(demoClient(sandbox()), {}, { concurrency: 4, now: () => NOW });
    const ids: string[] = [];
    let injected = false;
    const run = async () => {
      for await (const chunk of ordered.chunks()) {
        ids.push(...chunk.map((b) => b.batch_id));
        if (!injected && ids.length >= 400) {
          injected = true;
          await control(sandbox(), 'POST', '/_sandbox/inject', { kind: '500', count: 1 });
        }
      }
    };
    await expect(run()).rejects.toThrow(/answered 500/);
    expect(ids.length).toBeLessThan(want.length);
    expect(ids).toEqual(want.slice(0, ids.length));
  });
});
