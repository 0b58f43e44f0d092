import { describe, expect, it } from 'vitest';
import type { BatchApiClient } from '@/lib/batch-api/client';
import { inCreationOrder, OrderedLoad } from '@/lib/batch-api/ordered-load';
import type { Batch, DateRange } from '@/lib/contract';

/**
 * An in-memory service that pages in any order (the sandbox always answers oldest first), over batches whose
 * instants cluster and tie (several at one millisecond, at the parts' seams too), so that the ordered load can
 * be held to exactly the batches a sequential walk gives, in creation order, with bounded memory.
 */
const T0 = Date.parse('2024-01-01T00:00:00Z');
const PAGE = 100;
const DAY = 86_400_000;

/** Dense weeks, empty months, and runs of batches created at the same millisecond. */
function makeBatches(n: number): Batch[] {
  const out: Batch[] = [];
  let t = T0;
  for (let i = 0; i < n; i++) {
    if (i % 5000 === 0) t += 40 * DAY; // a gap
    if (i % 7 !== 0) t += (i % 3000 < 1500 ? 60_000 : 600_000) + (i % 11);
    out.push({
      batch_id: `b${String((i * 7919) % n).padStart(6, '0')}`,
      batch_creation_date: new Date(t).toISOString(),
    } as Batch);
  }
  return inCreationOrder(out);
}

type Order = 'oldest' | 'newest' | 'scrambled';

function service(all: Batch[], order: Order, fail?: { afterCalls: number }) {
  const times = all.map((b) => Date.parse(b.batch_creation_date));
  const at = (ms: number) => {
    const i = times.findIndex((t) => t >= ms);
    return i === -1 ? times.length : i;
  };
  let calls = 0;
  let inFlight = 0;
  let most = 0;
  let aborted = 0;
  const client = {
    async page(query: DateRange, cursor: string | null, options: { signal?: AbortSignal } = {}) {
      calls++;
      if (fail && calls > fail.afterCalls) throw new Error('the service broke');
      most = Math.max(most, ++inFlight);
      try {
        await new Promise((r) => setTimeout(r, 1));
        if (options.signal?.aborted) {
          aborted++;
          throw options.signal.reason;
        }
      } finally {
        inFlight--;
      }
      const from = query.start_date ? at(Date.parse(query.start_date)) : 0;
      const to = query.end_date ? at(Date.parse(query.end_date) + 1) : all.length;
      let match = all.slice(from, Math.max(from, to));
      if (order === 'newest') match = match.reverse();
      if (order === 'scrambled')
        match = match
          .map((b, i) => [b, (i * 7919) % match.length] as const)
          .sort((a, b) => a[1] - b[1])
          .map(([b]) => b);
      const offset = cursor ? Number(cursor) : 0;
      return {
        data: match.slice(offset, offset + PAGE),
        next_token: offset + PAGE < match.length ? String(offset + PAGE) : null,
      };
    },
  };
  return { client: client as unknown as BatchApiClient, stats: () => ({ calls, most, aborted }) };
}

async function collect(load: OrderedLoad) {
  const chunks: Batch[][] = [];
  for await (const chunk of load.chunks()) chunks.push(chunk);
  return chunks;
}

const ids = (batches: Batch[]) => batches.map((b) => b.batch_id);

describe('OrderedLoad', () => {
  const all = makeBatches(30_000);
  const end = Date.parse(all.at(-1)!.batch_creation_date) + DAY;

  it.each(['oldest', 'newest', 'scrambled'] as const)(
    '%s first: every batch once, in creation order, memory bounded',
    async (order) => {
      const { client, stats } = service(all, order);
      const load = new OrderedLoad(client, {}, { concurrency: 8, now: () => end });
      const chunks = await collect(load);
      expect(ids(chunks.flat())).toEqual(ids(all));
      expect(chunks.slice(1).every((c) => c.length > 0)).toBe(true);
      expect(stats().most).toBeLessThanOrEqual(8);
      // The window: 16 parts of about 6 pages (twice that for a part held whole before it is cut again).
      expect(load.mostHeld).toBeLessThanOrEqual(16 * 12 * PAGE);
      if (order === 'oldest') {
        expect(chunks[0]).toHaveLength(PAGE); // the first page at once
        expect(stats().calls).toBeLessThan((all.length / PAGE) * 1.4);
      } else expect(stats().calls).toBeLessThan((all.length / PAGE) * 2.5);
    },
  );

  it('the same for a closed range cut on seams, and for open starts and ends', async () => {
    const ranges: DateRange[] = [
      { start_date: all[1234]!.batch_creation_date, end_date: all[23456]!.batch_creation_date },
      { end_date: all[17000]!.batch_creation_date },
      { start_date: all[5000]!.batch_creation_date },
    ];
    for (const range of ranges) {
      const from = range.start_date ? Date.parse(range.start_date) : -Infinity;
      const to = range.end_date ? Date.parse(range.end_date) : Infinity;
      const want = all.filter(
        (b) => Date.parse(b.batch_creation_date) >= from && Date.parse(b.batch_creation_date) <= to,
      );
      for (const order of ['oldest', 'scrambled'] as const) {
        const load = new OrderedLoad(service(all, order).client, range, { concurrency: 4, now: () => end - 30 * DAY });
        expect(ids((await collect(load)).flat())).toEqual(ids(want));
      }
    }
  });

  it('a range of one page costs one request', async () => {
    const { client, stats } = service(all.slice(0, 50), 'newest');
    const chunks = await collect(new OrderedLoad(client, {}, { concurrency: 8 }));
    expect(ids(chunks.flat())).toEqual(ids(all.slice(0, 50)));
    expect(stats().calls).toBe(1);
  });

  it('a failure after the first page ends the iteration with that error, after only what came in order', async () => {
    const { client } = service(all, 'oldest', { afterCalls: 40 });
    const given: Batch[] = [];
    const load = new OrderedLoad(client, {}, { concurrency: 8, now: () => end });
    await expect(
      (async () => {
        for await (const chunk of load.chunks()) given.push(...chunk);
      })(),
    ).rejects.toThrow('the service broke');
    expect(ids(given)).toEqual(ids(all.slice(0, given.length)));
  });

  it('stopping the iteration aborts the requests in flight', async () => {
    const { client, stats } = service(all, 'oldest');
    const load = new OrderedLoad(client, {}, { concurrency: 8, now: () => end });
    let chunks = 0;
    for await (const chunk of load.chunks()) if (chunk.length && ++chunks === 2) break;
    await new Promise((r) => setTimeout(r, 20));
    const calls = stats().calls;
    await new Promise((r) => setTimeout(r, 20));
    expect(stats().calls).toBe(calls);
    expect(stats().aborted).toBeGreaterThan(0);
  });
});
