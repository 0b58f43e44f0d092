import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenRejectedError, type BatchApiClientOptions, type UpstreamCall } from '@/lib/batch-api';
import { RangeLoad } from '@/lib/batch-api/range-load';
import type { Batch, DateRange } from '@/lib/contract';
import { demoClient } from '../helpers/client';
import { control, sandboxForFile, tokenFor, walkV2 } from '../helpers/sandbox';

/**
 * What the service's real deployment answers besides the contract: a gateway's HTML 502 and 504, a rate
 * limiter's 429, tokens that expire while a request waits for its retry, a token refused however fresh.
 */
const sandbox = sandboxForFile({ batches: 2000, pageSize: 100 });
const inject = (kind: string, count = 1) => control(sandbox(), 'POST', '/_sandbox/inject', { kind, count });
const faults = (settings: Record<string, unknown>) => control(sandbox(), 'POST', '/_sandbox/faults', settings);
const stats = () =>
  control(sandbox(), 'GET', '/_sandbox/stats') as Promise<{
    batchRequests: number;
    faultsServed: number;
    tokensIssuedByOrg: Record<string, number>;
  }>;
afterEach(() => vi.useRealTimers());

async function everything(query: DateRange = {}) {
  const { batches } = await walkV2(sandbox(), await tokenFor(sandbox()), query as Record<string, string>);
  return batches.map((b) => b.batch_id).sort();
}

async function load(
  query: DateRange,
  options: { concurrency?: number } = {},
  client: Partial<BatchApiClientOptions> = {},
) {
  const calls: UpstreamCall[] = [];
  const range = new RangeLoad(demoClient(sandbox(), { onCall: (c) => calls.push(c), ...client }), query, {
    now: () => Date.parse('2026-06-01T00:00:00Z'),
    ...options,
  });
  const batches: Batch[] = [];
  for await (const chunk of range.chunks()) batches.push(...chunk);
  const ids = batches.map((b) => b.batch_id);
  expect(new Set(ids).size).toBe(ids.length); // each batch once
  return { ids: ids.sort(), calls, range };
}

describe('transient answers of a real deployment, in a whole-range load', () => {
  it.each(['gateway-502', 'gateway-504'])(
    'HTML %s pages mid-way are retried: the whole range arrives, each batch once',
    async (kind) => {
      const reference = await everything();
      const calls: UpstreamCall[] = [];
      const range = new RangeLoad(
        demoClient(sandbox(), { onCall: (c) => calls.push(c) }),
        {},
        { concurrency: 4, now: () => Date.parse('2026-06-01T00:00:00Z') },
      );
      const ids: string[] = [];
      for await (const chunk of range.chunks()) {
        // Mid-way for certain: after the first page has arrived, while the parts are being walked.
        if (ids.length === 0) await inject(kind, 3);
        ids.push(...chunk.map((b) => b.batch_id));
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(reference);
      expect(calls.filter((c) => c.status === Number(kind.slice(-3)))).toHaveLength(3);
    },
  );

  it('a 503 on every 5th request, answered with Retry-After: 0, never fails a load (a retry keeps its place)', async () => {
    const reference = await everything();
    // Everything here is in step (one process, Retry-After: 0 waits only the backoff, made a few ms here):
    // a retry that queued behind fresh requests met the 5th request again and again, and 38 of 40 such
    // loads failed.
    for (let i = 0; i < 10; i++) {
      await control(sandbox(), 'POST', '/_sandbox/reset');
      await faults({ fail503Every: 5, retryAfterS: 0 });
      const { ids } = await load({}, { concurrency: 8 }, { retry: { backoffBaseMs: 5 } });
      expect(ids).toEqual(reference);
    }
  });

  it('a rate limit on concurrent requests slows the load down instead of failing it', async () => {
    const reference = await everything();
    await faults({ rateLimitConcurrent: 3, rateLimitRetryAfterS: 0, latencyMs: 10 });
    const { ids, calls } = await load({}, { concurrency: 8 });
    expect(ids).toEqual(reference);
    const limited = calls.filter((c) => c.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    // The load learned the limit rather than hammering it: far fewer 429s than pages.
    expect(limited).toBeLessThan(calls.filter((c) => c.status === 200).length / 2);
  });
});

describe('how long a retry waits', () => {
  /** The wait the client announces before its first retry (on a fake clock: nothing actually waits). */
  async function firstWait(kind: string, settings: Record<string, unknown> = {}): Promise<number> {
    await faults(settings);
    await inject(kind);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let told!: (ms: number) => void;
    const wait = new Promise<number>((resolve) => (told = resolve));
    const page = demoClient(sandbox(), { retry: {}, random: () => 1 }).page({}, null, {
      onRetry: ({ delayMs }) => told(delayMs),
    });
    const delayMs = await wait;
    await vi.advanceTimersByTimeAsync(delayMs);
    expect((await page).data).toHaveLength(100);
    vi.useRealTimers();
    return delayMs;
  }

  it('a 429 with Retry-After: 1 waits 1 s (and at most 20 % more), not 3-5 s', async () => {
    expect(await firstWait('429', { rateLimitRetryAfterS: 1 })).toBe(1200); // the jitter at its largest (random 1)
  });

  it('a gateway error without Retry-After waits half a second, not 3-5 s; a 503 keeps the service’s 3-5 s', async () => {
    expect(await firstWait('gateway-502')).toBe(500);
    expect(await firstWait('503')).toBe(5000);
  });
});

describe('token lifetime across retries', () => {
  it('a token that expires while a request waits for its retry is renewed, however often: the credentials are fine', async () => {
    await faults({ retryAfterS: 1 });
    const client = demoClient(sandbox(), { retry: {} });
    await client.authenticate();
    // The observed sequence in one call: the cached token is no longer good (401), the renewed one meets a
    // 503, and it is revoked while the call waits out the 503 (a second 401 in the same call).
    await inject('token-refused');
    await inject('503');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let told!: () => void;
    const waiting = new Promise<void>((resolve) => (told = resolve));
    const page = client.page({}, null, { onRetry: () => told() });
    await waiting;
    await control(sandbox(), 'POST', '/_sandbox/revoke-tokens');
    await vi.advanceTimersByTimeAsync(1200); // Retry-After: 1, plus at most 20 %
    expect((await page).data).toHaveLength(100);
    expect((await stats()).tokensIssuedByOrg['org-demo']).toBe(3);
  });

  it('a token refused at once although issued moments ago is a clear error that does not blame the credentials', async () => {
    const client = demoClient(sandbox());
    await client.authenticate();
    await inject('token-refused', 5);
    const error = await client.page({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRejectedError);
    expect((error as TokenRejectedError).code).toBe('token_rejected');
  });
});

describe('what a resume may cost', () => {
  const batchCalls = (calls: UpstreamCall[]) => calls.filter((c) => c.path === '/v2/batches').length;

  /** A load that resumes these parts of `query`, as the stream route runs it for `parts=`. */
  async function resume(query: DateRange, parts: DateRange[]) {
    const calls: UpstreamCall[] = [];
    const range = new RangeLoad(demoClient(sandbox(), { onCall: (c) => calls.push(c) }), query, {
      parts,
      concurrency: 8,
    });
    const ids: string[] = [];
    for await (const chunk of range.chunks()) ids.push(...chunk.map((b) => b.batch_id));
    expect(new Set(ids).size).toBe(ids.length);
    return { ids: ids.sort(), calls };
  }

  /** `count` disjoint parts side by side from `from`, each `width` ms wide with a gap of `gap` ms. */
  const partsFrom = (from: number, count: number, width: number, gap: number) =>
    Array.from({ length: count }, (_, i) => ({
      start_date: new Date(from + i * (width + gap)).toISOString(),
      end_date: new Date(from + i * (width + gap) + width).toISOString(),
    }));

  it('many small parts of a one-page range cost one request, not one each', async () => {
    const day = { start_date: '2026-05-29T00:00:00Z', end_date: '2026-05-29T23:59:59.999Z' };
    const fresh = await load(day);
    const parts = partsFrom(Date.parse(day.start_date), 150, 500_000, 70_000);
    const resumed = await resume(day, parts);
    expect(batchCalls(fresh.calls)).toBe(1);
    expect(batchCalls(resumed.calls)).toBe(1);
    // Only the batches inside the parts asked for.
    const inside = fresh.ids.filter((id) => resumed.ids.includes(id));
    expect(resumed.ids).toEqual(inside);
  });

  it('a resume of a large range costs no more requests than loading it again, plus one', async () => {
    const fresh = await load({}, { concurrency: 8 });
    const everything = fresh.ids;
    // The whole history as 150 parts (the most a Retry may send), nothing left out.
    const from = Date.parse('2024-06-01T00:00:00Z');
    const parts = [
      { end_date: new Date(from - 1).toISOString() },
      ...partsFrom(from, 148, 5 * 86_400_000 - 1, 1),
      { start_date: new Date(from + 148 * 5 * 86_400_000).toISOString() },
    ];
    const resumed = await resume({}, parts);
    expect(resumed.ids).toEqual(everything);
    expect(batchCalls(resumed.calls)).toBeLessThanOrEqual(batchCalls(fresh.calls) + 1);
  });
});
