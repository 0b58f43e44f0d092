import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestOptions } from '@/lib/batch-api';
import type { BatchApiClient } from '@/lib/batch-api/client';
import { MAX_CONCURRENCY, RangeLoad } from '@/lib/batch-api/range-load';
import { maxUnfinishedParts, partBoundsMs, plannedParts, planParts } from '@/lib/batch-api/range-parts';
import { formatParts, type Batch, type DateRange } from '@/lib/contract';
import { StreamQuerySchema } from '@/lib/server/batches/batch-query';

/**
 * The contract does not say in which order the service pages through a range, and the sandbox always answers
 * oldest first. This in-memory service answers in any order (the one thing the sandbox cannot do), so the
 * loader can be held to the same batches, and to a bounded number of requests, whatever the order.
 */
const T0 = Date.parse('2024-01-01T00:00:00Z');
const N = 20_000;
const PAGE = 100;
const STEP_MS = 1_500_000;
const batches = Array.from(
  { length: N },
  (_, i) => ({ batch_id: `b${i}`, batch_creation_date: new Date(T0 + i * STEP_MS).toISOString() }) as Batch,
);

/** Index of the first batch at or after `ms` (the batches are STEP_MS apart from T0). */
const indexAt = (ms: number) => Math.min(N, Math.max(0, Math.ceil((ms - T0) / STEP_MS)));

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
      const from = query.start_date ? indexAt(Date.parse(query.start_date)) : 0;
      const to = query.end_date ? indexAt(Date.parse(query.end_date) + 1) : N;
      let match = batches.slice(from, Math.max(from, to));
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
  return { client: client as unknown as BatchApiClient, stats: () => ({ calls, most }) };
}

describe('RangeLoad whatever order the service pages in', () => {
  it.each(['oldest', 'newest', 'scrambled'] as const)(
    '%s first: every batch once, in few more requests than sequential paging',
    async (order) => {
      const { client, stats } = service(order);
      const load = new RangeLoad(client, {}, { concurrency: 8, now: () => T0 + N * STEP_MS });
      const ids: string[] = [];
      for await (const chunk of load.chunks()) for (const b of chunk) ids.push(b.batch_id);
      expect(ids).toHaveLength(N);
      expect(new Set(ids).size).toBe(N);
      expect(stats().calls).toBeLessThan((N / PAGE) * 1.5);
      expect(stats().most).toBeLessThanOrEqual(8);
    },
  );

  it.each(['oldest', 'newest', 'scrambled'] as const)(
    '%s first, at the most request slots: never more unfinished parts than a resume may send back',
    async (order) => {
      const { client } = service(order);
      const load = new RangeLoad(client, {}, { concurrency: MAX_CONCURRENCY, now: () => T0 + N * STEP_MS });
      let most = 0;
      for await (const _chunk of load.chunks()) {
        const remaining = load.remaining();
        most = Math.max(most, remaining.length);
        if (remaining.length === most && most > 0) {
          // What a Retry would send after a failure now is a query the stream route accepts.
          expect(StreamQuerySchema.safeParse({ parts: formatParts(remaining) }).success).toBe(true);
        }
      }
      expect(most).toBeLessThanOrEqual(maxUnfinishedParts(MAX_CONCURRENCY));
    },
  );

  it.each(['oldest', 'newest', 'scrambled'] as const)(
    '%s first, read slowly: after every chunk, each batch not given out yet lies in a part remaining() names',
    async (order) => {
      const { client } = service(order);
      const load = new RangeLoad(
        client,
        {},
        { concurrency: 8, maxConcurrency: MAX_CONCURRENCY, now: () => T0 + N * STEP_MS },
      );
      const given = new Set<string>();
      let checks = 0;
      let mostAgain = 0;
      for await (const chunk of load.chunks()) {
        for (const b of chunk) given.add(b.batch_id);
        // A stream cut here resumes from these parts: nothing outside them may be missing.
        const pending = load.remaining().map(partBoundsMs);
        const inPending = batches.map((_, i) =>
          pending.some((p) => T0 + i * STEP_MS >= p.start && T0 + i * STEP_MS <= p.end),
        );
        const lost = batches.filter((b, i) => !given.has(b.batch_id) && !inPending[i]);
        expect(lost).toEqual([]);
        // What a resume from here would fetch again, though given out already.
        const again = batches.filter((b, i) => given.has(b.batch_id) && inPending[i]).length;
        mostAgain = Math.max(mostAgain, again);
        if (++checks % 5 === 0) {
          // A slow reader: the walkers fill the buffer with chunks of parts they have finished meanwhile.
          for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
        }
      }
      expect(given.size).toBe(N);
      expect(load.remaining()).toEqual([]);
      // A service that pages oldest first is resumed from where each part got to: at most a page or so of
      // each part in flight is fetched again. In any other order a part is resumed whole.
      if (order === 'oldest') expect(mostAgain).toBeLessThan(MAX_CONCURRENCY * 2 * PAGE);
    },
  );

  it('the plan for an open start on a newest-first service fits what a Retry may send, in a URL Node accepts', async () => {
    const { client } = service('newest');
    const first = await client.page({}, null);
    const plan = planParts({}, plannedParts(MAX_CONCURRENCY), first.data, T0 + N * STEP_MS);
    expect(plan.length).toBeGreaterThan(128); // the old fixed limit of 128 refused the Retry of such a load
    expect(plan.length).toBeLessThanOrEqual(maxUnfinishedParts(MAX_CONCURRENCY));
    const parts = formatParts(plan);
    expect(StreamQuerySchema.safeParse({ parts }).success).toBe(true);
    const url = `/api/batches/stream?${new URLSearchParams({ parts })}`;
    expect(url.length).toBeLessThan(16 * 1024 - 1024); // Node refuses request heads over 16 kB
  });
});

/**
 * Batches on few instants (ties on every cut), ranges with either end open, any order, and a service whose
 * exchanges slow down as more are in flight (so the limit grows, then steps back): the loader still gives
 * exactly the batches a sequential walk would, once each. The gate is told times computed from the requests
 * in flight, never read from a clock.
 */
describe('RangeLoad growing and stepping back, as a property', () => {
  const SMALL_PAGE = 20;
  const at = (second: number) => new Date(T0 + second * 1000).toISOString();

  function pacedService(all: Batch[], order: 'oldest' | 'newest' | 'scrambled') {
    let inFlight = 0;
    let most = 0;
    const client = {
      async page(query: DateRange, cursor: string | null, { gate, signal }: RequestOptions = {}) {
        await gate?.acquire(signal);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setImmediate(r));
        const ms = 10 + 4 * inFlight; // a service that queues what it cannot serve at once
        inFlight--;
        const from = query.start_date ? Date.parse(query.start_date) : -Infinity;
        const to = query.end_date ? Date.parse(query.end_date) : Infinity;
        let match = all.filter(
          (b) => Date.parse(b.batch_creation_date) >= from && Date.parse(b.batch_creation_date) <= to,
        );
        if (order === 'newest') match = match.reverse();
        if (order === 'scrambled')
          match = match
            .map((b, i) => [b, (i * 7919) % match.length] as const)
            .sort((a, b) => a[1] - b[1])
            .map(([b]) => b);
        const offset = cursor ? Number(cursor) : 0;
        gate?.release('ok', ms);
        return {
          data: match.slice(offset, offset + SMALL_PAGE),
          next_token: offset + SMALL_PAGE < match.length ? String(offset + SMALL_PAGE) : null,
        };
      },
    };
    return { client: client as unknown as BatchApiClient, most: () => most };
  }

  it('every batch of the range once, whatever the ties, open ends, order and growth', () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 700 }),
        fc.constantFrom('oldest' as const, 'newest' as const, 'scrambled' as const),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 12 }),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        async (seconds, order, start, extra, from, to) => {
          const all = seconds
            .map((s, i) => ({ batch_id: `p${String(i).padStart(4, '0')}`, batch_creation_date: at(s) }) as Batch)
            .sort(
              (a, b) =>
                a.batch_creation_date.localeCompare(b.batch_creation_date) || a.batch_id.localeCompare(b.batch_id),
            );
          const query: DateRange = {
            start_date: from === undefined ? undefined : at(from),
            end_date: to === undefined ? undefined : at(to),
          };
          const expected = all
            .filter(
              (b) =>
                (from === undefined || b.batch_creation_date >= at(from)) &&
                (to === undefined || b.batch_creation_date <= at(to)),
            )
            .map((b) => b.batch_id)
            .sort();
          const { client, most } = pacedService(all, order);
          const load = new RangeLoad(client, query, {
            concurrency: start,
            maxConcurrency: start + extra,
            now: () => T0 + 61_000,
          });
          const ids: string[] = [];
          for await (const chunk of load.chunks()) for (const b of chunk) ids.push(b.batch_id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids.sort()).toEqual(expected);
          expect(most()).toBeLessThanOrEqual(start + extra);
        },
      ),
      { seed: 16, numRuns: 60 },
    ));
});
