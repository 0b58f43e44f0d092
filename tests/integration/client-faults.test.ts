import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BadResponseError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedError,
  type BatchApiClientOptions,
  type UpstreamCall,
} from '@/lib/batch-api';
import { FAST_RETRY, demoClient } from '../helpers/client';
import { control, sandboxForFile } from '../helpers/sandbox';

const sandbox = sandboxForFile({ batches: 700, pageSize: 100 });

const client = (options: Partial<BatchApiClientOptions> = {}) => demoClient(sandbox(), options);
const inject = (kind: string, count = 1, target = 'batches') =>
  control(sandbox(), 'POST', '/_sandbox/inject', { kind, count, target });

/** A fetch that hides `expires_in`, as a service that does not announce token lifetimes would. */
const fetchWithoutExpiry: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!String(input).endsWith('/auth') || response.status !== 200) return response;
  const { access_token } = await response.json();
  return new Response(JSON.stringify({ access_token }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
};

afterEach(() => vi.useRealTimers());

describe('upstream client: faults from the sandbox switches', () => {
  it('retries through a burst of 503s and returns every batch exactly once', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { fail503Every: 3 });
    const calls: UpstreamCall[] = [];
    const batches = await client({ onCall: (c) => calls.push(c) }).list({});
    expect(batches).toHaveLength(700);
    expect(new Set(batches.map((b) => b.batch_id)).size).toBe(700);
    expect(calls.filter((c) => c.status === 503).length).toBeGreaterThanOrEqual(3);
  });

  /**
   * The client's waits on a fake clock: the request runs over real HTTP, the retry's wait is only a timer.
   * Resolves once the client has said how long it will wait, and checks it waits exactly that long.
   */
  async function waitOfOneRetry(options: Partial<BatchApiClientOptions>): Promise<number> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let told!: (delayMs: number) => void;
    const delay = new Promise<number>((resolve) => (told = resolve));
    let done = false;
    const page = client(options)
      .page({}, null, { onRetry: ({ delayMs }) => told(delayMs) })
      .then((p) => ((done = true), p));
    const delayMs = await delay;
    await vi.advanceTimersByTimeAsync(delayMs - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await page).data).toHaveLength(100);
    return delayMs;
  }

  it('waits 3 to 5 s between attempts by default, spread by jitter', async () => {
    for (const [random, expected] of [
      [0, 3000],
      [0.5, 4000],
      [0.999, 4998],
    ] as const) {
      await inject('503', 1);
      expect(await waitOfOneRetry({ retry: {}, random: () => random })).toBe(expected);
      vi.useRealTimers();
    }
  });

  it('honours Retry-After, shorter than the default wait', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { retryAfterS: 1 });
    await inject('503', 1);
    // Without jitter (random 0); with it, up to 20 % more (tests/unit/retry.test.ts).
    expect(
      await waitOfOneRetry({ retry: { ...FAST_RETRY, minDelayMs: 3000, maxDelayMs: 5000 }, random: () => 0 }),
    ).toBe(1000);
  });

  it('gives up after the bounded attempts with ServiceUnavailableError and a retry hint', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { retryAfterS: 0 });
    await inject('503', 50);
    const error = await client({ retry: { ...FAST_RETRY, maxAttempts: 3 } })
      .page({})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).message).toMatch(/gave up after 3 attempts/);
    expect(sandbox().stats.batchRequests).toBe(3);
  });

  it('stops at the overall deadline', async () => {
    await inject('503', 50);
    const started = Date.now();
    const retry = { maxAttempts: 50, minDelayMs: 100, maxDelayMs: 100, deadlineMs: 350 };
    await expect(client({ retry }).page({})).rejects.toThrow(ServiceUnavailableError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not retry the POST to the auth endpoint', async () => {
    await inject('503', 1, 'auth');
    await expect(client().authenticate()).rejects.toThrow(ServiceUnavailableError);
    expect(sandbox().stats.authRequests).toBe(1);
  });

  it('retries a reset connection and a body cut off mid-way', async () => {
    const api = client();
    await api.authenticate();
    await inject('reset', 1);
    await inject('truncated', 1);
    const page = await api.page({});
    expect(page.data).toHaveLength(100);
    expect(sandbox().stats.faultsServed).toBe(2);
  });

  it('times out a service that does not answer', async () => {
    const api = client({ timeoutMs: 300 });
    await api.authenticate();
    await inject('hang', 1);
    const started = Date.now();
    await expect(api.page({})).rejects.toThrow(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports malformed JSON and a wrong shape as BadResponseError naming the field', async () => {
    const api = client();
    await inject('malformed-json');
    const malformed = await api.page({}).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(BadResponseError);
    expect((malformed as BadResponseError).field).toBe('body');
    await inject('wrong-shape');
    const shape = await api.page({}).catch((e: unknown) => e);
    expect(shape).toBeInstanceOf(BadResponseError);
    expect((shape as BadResponseError).field).toBe('data[0].avg_germination_rate');
    expect((shape as Error).message).toMatch(/^data\[0\]\.avg_germination_rate: /);
  });

  it('reports a 500 as UnexpectedError without retrying', async () => {
    await inject('500');
    const error = await client()
      .page({})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedError);
    expect((error as UnexpectedError).status).toBe(500);
    expect(sandbox().stats.batchRequests).toBe(1);
  });

  it('without expires_in, an expired token mid-paging is renewed after the 401 and nothing is lost', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { tokenTtlS: 0.3 });
    const calls: UpstreamCall[] = [];
    // The clocks stand still but for one step: the token dies after the second page, wherever the walk is in real
    // time (timers stay real: the HTTP exchanges run as ever).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const onCall = (c: UpstreamCall) => {
        calls.push(c);
        const page = (k: UpstreamCall) => k.path.includes('/batches') && k.status === 200;
        if (page(c) && calls.filter(page).length === 2) vi.setSystemTime(Date.now() + 1000);
      };
      const batches = await client({ fetch: fetchWithoutExpiry, onCall }).list({});
      expect(batches).toHaveLength(700);
      expect(new Set(batches.map((b) => b.batch_id)).size).toBe(700);
    } finally {
      vi.useRealTimers();
    }
    expect(calls.filter((c) => c.status === 401)).toHaveLength(1);
    expect(calls.find((c) => c.status === 401)!.path).toMatch(/\/batches/);
  });

  it('an abort from the caller stops a retry wait at once', async () => {
    await inject('503', 5);
    const controller = new AbortController();
    const pending = client({ retry: { ...FAST_RETRY, minDelayMs: 5000, maxDelayMs: 5000, deadlineMs: 60_000 } }).page(
      {},
      null,
      {
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(new Error('browser went away')), 200);
    await expect(pending).rejects.toThrow('browser went away');
  });
});
