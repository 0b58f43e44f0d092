import { describe, expect, it } from 'vitest';
import type { BatchApiClient } from '@/lib/batch-api/client';
import { RangeLoad } from '@/lib/batch-api/range-load';
import type { Batch, DateRange } from '@/lib/contract';

/**
 * The spec does not say in which order the service pages through a range, and the sandbox always answers
 * oldest first. This in-memory service answers in any order (the one thing the sandbox cannot do), so the
 * loader can be held to the same batches, and to a bounded number of requests, whatever the order.
 */
const T0 = Date.parse('2024-01-01T00:00:00Z');
const N = 20_000;
const PAGE = 100;
const batches = Array.from({ length: N }, (_, i) => ({ batch_id: `b${i}`, batch_creation_date: new Date(T0 + i * 1_500_000).toISOString() }) as Batch);

function service(order: 'oldest' | 'newest' | 'scrambled') {
  let calls = 0;
  let inFlight = 0;
  let most = 0;
  const client = {
    async page(query: DateRange, cursor: string | null) {
      calls++;
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      const lo = query.start_date ? Date.parse(query.start_date) : -Infinity;
      const hi = query.end_date ? Date.parse(query.end_date) : Infinity;
      let match = batches.filter((b) => Date.parse(b.batch_creation_date) >= lo && Date.parse(b.batch_creation_date) <= hi);
      if (order === 'newest') match = match.reverse();
      if (order === 'scrambled') match = match.map((b, i) => [b, (i * 7919) % match.length] as const).sort((a, b) => a[1] - b[1]).map(([b]) => b);
      const offset = cursor ? Number(cursor) : 0;
      return { data: match.slice(offset, offset + PAGE), next_token: offset + PAGE < match.length ? String(offset + PAGE) : null };
    },
  };
  return { client: client as unknown as BatchApiClient, stats: () => ({ calls, most }) };
}

describe('RangeLoad whatever order the service pages in', () => {
  it.each(['oldest', 'newest', 'scrambled'] as const)('%s first: every batch once, in few more requests than sequential paging', async (order) => {
    const { client, stats } = service(order);
    const load = new RangeLoad(client, {}, { concurrency: 8, now: () => T0 + N * 1_500_000 });
    const ids: string[] = [];
    for await (const chunk of load.chunks()) for (const b of chunk) ids.push(b.batch_id);
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    expect(stats().calls).toBeLessThan((N / PAGE) * 1.5);
    expect(stats().most).toBeLessThanOrEqual(8);
  });
});
