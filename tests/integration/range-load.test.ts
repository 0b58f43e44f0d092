import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RangeLoad, type RangeLoadOptions } from '@/lib/batch-api/range-load';
import {
  maxUnfinishedParts,
  MAX_CONCURRENCY,
  ServiceUnavailableError,
  type BatchApiClientOptions,
  type BatchQuery,
  type UpstreamCall,
} from '@/lib/batch-api';
import { formatParts, type Batch } from '@/lib/contract';
import { StreamQuerySchema } from '@/lib/server/batches/batch-query';
import { organisationOf } from '@/sandbox/organisations';
import { demoClient } from '../helpers/client';
import { control, sandboxForFile, tokenFor, walkV2 } from '../helpers/sandbox';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SEAM_CREDENTIALS = { clientId: 'seam-client', clientSecret: 'seam-secret' };

function batch(id: string, date: string): Batch {
  return {
    batch_id: id,
    batch_name: `Seam ${id}`,
    batch_creation_date: date,
    crop_type: 'Lettuce',
    number_of_images: 4,
    total_cells_per_tray: 128,
    avg_germinated_seedlings: '120.00',
    avg_non_germinated_seedlings: '8.00',
    avg_germination_rate: '93.75',
    avg_usable_seedlings: '110.00',
    avg_non_usable_cells: '18.00',
    avg_usable_seedling_rate: '85.94',
    avg_coefficient_of_variation: '12.30',
    avg_median_seedling_size_mm2: '40.10',
    scanned_by_email: null,
    analysis_link: null,
    comment: null,
    warnings: false,
  };
}

/**
 * Batches piled on the instants where a range of 8 s is cut into 8 parts (every whole second), 150 tied at
 * the midpoint of one part (more than a page, and exactly where that part is cut again), the range's own
 * inclusive ends, their outside neighbours, and an instant below the millisecond.
 */
function seamBatches(): Batch[] {
  const out: Batch[] = [];
  for (let s = 1; s <= 7; s++) for (let i = 0; i < 30; i++) out.push(batch(`cut${s}-${i}`, iso(T0 + s * 1000)));
  for (let i = 0; i < 150; i++) out.push(batch(`tie-${String(i).padStart(3, '0')}`, iso(T0 + 2500)));
  out.push(
    batch('start', iso(T0)),
    batch('end', iso(T0 + 8000)),
    batch('before', iso(T0 - 1)),
    batch('after', iso(T0 + 8001)),
  );
  out.push(batch('sub-ms', '2026-01-01T00:00:03.0004Z'));
  for (let i = 0; i < 40; i++) out.push(batch(`spread-${i}`, iso(T0 + 37 + i * 197)));
  return out;
}

const sandbox = sandboxForFile({ batches: 3000, pageSize: 100 }, [
  organisationOf({ id: 'org-seam', name: 'Seams', ...SEAM_CREDENTIALS }, seamBatches()),
]);

async function collect(load: RangeLoad): Promise<{ batches: Batch[]; chunks: number }> {
  const batches: Batch[] = [];
  let chunks = 0;
  for await (const chunk of load.chunks()) {
    expect(chunk.length).toBeGreaterThan(0);
    batches.push(...chunk);
    chunks++;
  }
  return { batches, chunks };
}

/** Sequential cursor paging with raw HTTP: the reference every fast load must equal. */
async function reference(query: BatchQuery, credentials?: { clientId: string; clientSecret: string }) {
  const token = await tokenFor(sandbox(), 'v2', credentials);
  const { batches } = await walkV2(sandbox(), token, query as Record<string, string>);
  return batches.map((b) => b.batch_id).sort();
}

function loadOf(query: BatchQuery, options: RangeLoadOptions = {}, clientOptions: Partial<BatchApiClientOptions> = {}) {
  const client = demoClient(sandbox(), clientOptions);
  return new RangeLoad(client, query, { now: () => Date.parse('2026-06-01T00:00:00Z'), ...options });
}

function expectSameBatches(batches: Batch[], expected: string[]) {
  const ids = batches.map((b) => b.batch_id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.sort()).toEqual(expected);
}

describe('RangeLoad: parallel parts give exactly the batches of sequential paging', () => {
  it.each([
    ['the whole history (both ends open)', {}],
    ['an open start', { end_date: '2025-09-30T12:00:00Z' }],
    ['an open end', { start_date: '2025-03-01T00:00:00.000Z' }],
    ['a closed range', { start_date: '2025-01-01T00:00:00Z', end_date: '2025-12-31T23:59:59.999Z' }],
  ])('%s', async (_name, query: BatchQuery) => {
    const calls: UpstreamCall[] = [];
    const { batches, chunks } = await collect(loadOf(query, { concurrency: 4 }, { onCall: (c) => calls.push(c) }));
    expectSameBatches(batches, await reference(query));
    expect(chunks).toBeGreaterThan(1);
    expect(calls.filter((c) => c.path === '/v2/batches').length).toBeGreaterThan(1);
  });

  it('a range of one page costs one request; an empty range gives no chunk', async () => {
    const calls: UpstreamCall[] = [];
    const small = { start_date: '2026-05-30T00:00:00Z', end_date: '2026-05-31T00:00:00Z' };
    const { batches } = await collect(loadOf(small, {}, { onCall: (c) => calls.push(c) }));
    expectSameBatches(batches, await reference(small));
    expect(batches.length).toBeLessThan(100);
    expect(calls.filter((c) => c.path === '/v2/batches')).toHaveLength(1);

    const empty = await collect(loadOf({ start_date: '2030-01-01T00:00:00Z' }));
    expect(empty).toEqual({ batches: [], chunks: 0 });
  });

  it('keeps batches on the seams once, ties at a cut, both inclusive ends and sub-millisecond instants', async () => {
    const query = { start_date: iso(T0), end_date: iso(T0 + 8000) };
    const client = demoClient(sandbox(), SEAM_CREDENTIALS);
    for (const concurrency of [1, 2, 3, 8]) {
      const load = new RangeLoad(client, query, { concurrency });
      const { batches } = await collect(load);
      expectSameBatches(batches, await reference(query, SEAM_CREDENTIALS));
      expect(batches.map((b) => b.batch_id)).toEqual(expect.arrayContaining(['start', 'end', 'sub-ms']));
      expect(batches.map((b) => b.batch_id)).not.toContain('before');
      expect(load.count).toBe(batches.length);
      expect(load.remaining()).toEqual([]);
    }
  });

  it('never has more requests in flight than its concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      most = Math.max(most, ++inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 5 });
    const { batches } = await collect(loadOf({}, { concurrency: 3 }, { fetch: counting }));
    expect(batches).toHaveLength(3000);
    expect(most).toBe(3);
  });

  it('rides out a 503 on every 5th request, backing off, with every batch once', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { fail503Every: 5 });
    const calls: UpstreamCall[] = [];
    const { batches } = await collect(loadOf({}, { concurrency: 6 }, { onCall: (c) => calls.push(c) }));
    expectSameBatches(
      batches,
      sandbox()
        .organisations[0]!.batches.map((b) => b.batch_id)
        .sort(),
    );
    expect(calls.filter((c) => c.status === 503).length).toBeGreaterThan(3);
  });

  it('after an outage mid-way, keeps what it gave and resumes the remaining parts without a duplicate', async () => {
    const given: Batch[] = [];
    const first = loadOf({}, { concurrency: 4 }, { retry: { maxAttempts: 1 } });
    let failure: unknown;
    try {
      for await (const chunk of first.chunks()) {
        given.push(...chunk);
        if (given.length >= 600) await control(sandbox(), 'POST', '/_sandbox/faults', { outage: true });
      }
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(given.length).toBeGreaterThanOrEqual(600);
    expect(given.length).toBeLessThan(3000);
    const parts = first.remaining();
    expect(parts.length).toBeGreaterThan(0);

    await control(sandbox(), 'POST', '/_sandbox/faults', { outage: false });
    const { batches: rest } = await collect(loadOf({}, { parts }));
    const known = new Set(given.map((b) => b.batch_id));
    const all = [...given, ...rest.filter((b) => !known.has(b.batch_id))];
    expectSameBatches(
      all,
      sandbox()
        .organisations[0]!.batches.map((b) => b.batch_id)
        .sort(),
    );
  });

  it('stops every request when its signal aborts', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 50 });
    const abort = new AbortController();
    const load = loadOf({}, { signal: abort.signal, concurrency: 4 });
    const seen: Batch[] = [];
    await expect(
      (async () => {
        for await (const chunk of load.chunks()) {
          seen.push(...chunk);
          abort.abort(new Error('left the page'));
        }
      })(),
    ).rejects.toThrow('left the page');
    expect(seen.length).toBeGreaterThan(0);
    expect(load.remaining().length).toBeGreaterThan(0);
  });
});

/**
 * A clock for the client's exchange times that advances 10 ms a reading: every exchange takes exactly 10 ms,
 * so the latency stays flat and the limit grows, whatever the machine's load (no real clock decides).
 */
const steadyClock = () => {
  let t = 0;
  return () => (t += 10);
};

/** fetch that counts the batch requests in flight at once. */
function countingFetch() {
  let inFlight = 0;
  let most = 0;
  const fetchCounting: typeof fetch = async (input, init) => {
    const batches = String(input).includes('/batches');
    if (batches) most = Math.max(most, ++inFlight);
    try {
      return await fetch(input, init);
    } finally {
      if (batches) inFlight--;
    }
  };
  return { fetch: fetchCounting, most: () => most };
}

describe('RangeLoad growing its concurrency: still exactly the batches of sequential paging', () => {
  const all = () =>
    sandbox()
      .organisations[0]!.batches.map((b) => b.batch_id)
      .sort();

  it('grows past its start while exchanges keep their pace, never past its most', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 5 });
    const counting = countingFetch();
    const load = loadOf({}, { concurrency: 2, maxConcurrency: 6 }, { fetch: counting.fetch, now: steadyClock() });
    expectSameBatches((await collect(load)).batches, all());
    expect(counting.most()).toBeGreaterThan(2);
    expect(counting.most()).toBeLessThanOrEqual(6);
  });

  it.each([
    ['an open start', { end_date: '2025-09-30T12:00:00Z' }],
    ['an open end', { start_date: '2025-03-01T00:00:00.000Z' }],
  ])('%s', async (_name, query: BatchQuery) => {
    const { batches } = await collect(loadOf(query, { concurrency: 2, maxConcurrency: 16 }, { now: steadyClock() }));
    expectSameBatches(batches, await reference(query));
  });

  it('keeps batches on the seams once while growing', async () => {
    const query = { start_date: iso(T0), end_date: iso(T0 + 8000) };
    const client = demoClient(sandbox(), { ...SEAM_CREDENTIALS, now: steadyClock() });
    const { batches } = await collect(new RangeLoad(client, query, { concurrency: 1, maxConcurrency: 12 }));
    expectSameBatches(batches, await reference(query, SEAM_CREDENTIALS));
  });

  it('a gateway answering 429 above 5 at once, met while growing: every batch once', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', {
      latencyMs: 5,
      rateLimitConcurrent: 5,
      rateLimitRetryAfterS: 0,
    });
    const calls: UpstreamCall[] = [];
    const load = loadOf(
      {},
      { concurrency: 4, maxConcurrency: 16 },
      { onCall: (c) => calls.push(c), now: steadyClock() },
    );
    expectSameBatches((await collect(load)).batches, all());
    const limited = calls.filter((c) => c.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    // Each 429 drops the limit to what was carried: far fewer refusals than requests.
    expect(limited).toBeLessThan(calls.filter((c) => c.status === 200).length / 2);
  });

  it('503s mid-way while growing halve it; every batch once', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { fail503Every: 9 });
    const calls: UpstreamCall[] = [];
    const load = loadOf(
      {},
      { concurrency: 2, maxConcurrency: 16 },
      { onCall: (c) => calls.push(c), now: steadyClock() },
    );
    expectSameBatches((await collect(load)).batches, all());
    expect(calls.filter((c) => c.status === 503).length).toBeGreaterThan(1);
  });

  it('an outage mid-way at the most slots: remaining() is a query the stream accepts, and resumes without a duplicate', async () => {
    const given: Batch[] = [];
    const first = loadOf(
      {},
      { concurrency: 8, maxConcurrency: MAX_CONCURRENCY },
      { retry: { maxAttempts: 1 }, now: steadyClock() },
    );
    await expect(
      (async () => {
        for await (const chunk of first.chunks()) {
          given.push(...chunk);
          if (given.length >= 600) await control(sandbox(), 'POST', '/_sandbox/faults', { outage: true });
        }
      })(),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    const parts = first.remaining();
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.length).toBeLessThanOrEqual(maxUnfinishedParts(MAX_CONCURRENCY));
    expect(StreamQuerySchema.safeParse({ parts: formatParts(parts) }).success).toBe(true);

    await control(sandbox(), 'POST', '/_sandbox/faults', { outage: false });
    const { batches: rest } = await collect(
      loadOf({}, { parts, concurrency: 8, maxConcurrency: MAX_CONCURRENCY }, { now: steadyClock() }),
    );
    const known = new Set(given.map((b) => b.batch_id));
    expectSameBatches([...given, ...rest.filter((b) => !known.has(b.batch_id))], all());
  });
});

describe('RangeLoad: its requests wait on signals of their own', () => {
  it('32 requests sharing one load neither warn of a listener leak (MaxListenersExceededWarning) nor leave a listener behind', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // Workers for 32 requests, 8 let through at first: the others wait at the gate, each on the load's signal
      // until every request had a signal of its own.
      const controller = new AbortController();
      const query = {};
      const { batches } = await collect(
        loadOf(query, { concurrency: 4, maxConcurrency: 32, signal: controller.signal }),
      );
      expectSameBatches(batches, await reference(query));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map(String)).toEqual([]);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
