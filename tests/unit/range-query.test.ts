import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rangeQueryOptions } from '@/components/explorer/range/range-query';
import type { DateRange } from '@/lib/contract';
import type { RangeData } from '@/lib/explorer/batch-load';
import { generateBatches } from '@/sandbox/data/generate';
import { chunked, held, ok, scripted, waitFor } from '../helpers/stream';

/**
 * The explorer's query as the page uses it (a QueryClient and observers that mount and unmount), with the
 * stream faked at the fetch seam: what is fetched again, when, and what is kept.
 */
const batches = generateBatches({
  seed: 'range-query',
  count: 40,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
});
const RANGE: DateRange = { start_date: '2025-01-01T00:00:00Z' };
const whole = () => ok(chunked([{ batches }, { done: true, count: 40 }], 300));

let client: QueryClient;
beforeEach(() => {
  client = new QueryClient();
});
afterEach(() => {
  client.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** The fetch the loader uses, scripted. */
function serve(...answers: Parameters<typeof scripted>) {
  const fake = scripted(...answers);
  vi.stubGlobal('fetch', fake.fetch);
  return fake.calls;
}

type Seen = { data?: RangeData; error: unknown; fetching: boolean };

/** Mounts a view of the range (as the page does); `reached` resolves once `until` holds for what it shows. */
function mount(until: (r: Seen) => boolean) {
  const observer = new QueryObserver(client, rangeQueryOptions(RANGE));
  const seen = waitFor(until);
  const unsubscribe = observer.subscribe((r) => seen.notify({ data: r.data, error: r.error, fetching: r.isFetching }));
  const now = observer.getCurrentResult();
  seen.notify({ data: now.data, error: now.error, fetching: now.isFetching });
  return { reached: seen.reached, unsubscribe, observer };
}

/** Mounts a view and waits until `until` holds. */
async function view(until: (r: Seen) => boolean) {
  const mounted = mount(until);
  return { ...mounted, result: await mounted.reached };
}
const complete = (r: Seen) => r.data?.complete === true;
const settled = (r: Seen) => complete(r) && !r.fetching;

describe('one query per range', () => {
  it('a complete range reopens from the cache for five minutes, then loads again from the start', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const calls = serve(whole(), whole());
    const first = await view(settled);
    expect(first.result.data!.rows).toHaveLength(40);
    first.unsubscribe();
    const again = await view(complete);
    expect(again.result.fetching).toBe(false);
    expect(calls).toHaveLength(1);
    again.unsubscribe();

    vi.advanceTimersByTime(5 * 60_000 + 1);
    const stale = await view((r) => r.fetching === false && complete(r) && calls.length === 2);
    expect(stale.result.data!.rows).toHaveLength(40);
    expect(new URL(calls[1]!.url, 'http://app.test').searchParams.has('parts')).toBe(false);
    stale.unsubscribe();
  });

  it('a failed range keeps its rows and is not fetched again when shown again; Retry asks only for the parts named', async () => {
    const remaining = '2025-03-01T00:00:00.000Z~';
    const failing = ok(
      chunked(
        [
          { batches: batches.slice(0, 15) },
          { error: { status: 503, detail: 'Batch Data Service unavailable: down', retryAfterS: 4 }, remaining },
        ],
        300,
      ),
    );
    const resumed = ok(chunked([{ batches: batches.slice(10) }, { done: true, count: 30 }], 300));
    const calls = serve(failing, resumed);
    const failed = await view((r) => r.error !== null);
    expect(failed.result.error).toMatchObject({ status: 503, retryAfterS: 4 });
    expect(failed.result.data).toMatchObject({ complete: false, remaining });
    expect(failed.result.data!.rows).toHaveLength(15);
    failed.unsubscribe();

    // Shown again (another range and back, a remount): the error and the rows, and no new request.
    const shown = await view((r) => r.error !== null);
    expect(shown.result.fetching).toBe(false);
    expect(calls).toHaveLength(1);

    // The person's Retry continues from the rows here, with the parts the server named.
    void shown.observer.refetch();
    const done = await view(settled);
    expect(new URL(calls[1]!.url, 'http://app.test').searchParams.get('parts')).toBe(remaining);
    expect(done.result.data!.rows.map((r) => r.batch.batch_id)).toEqual(batches.map((b) => b.batch_id));
    expect(done.result.error).toBeNull();
    shown.unsubscribe();
    done.unsubscribe();
  });

  it('leaving a range while it loads cancels the load and keeps its rows; coming back resumes it', async () => {
    const stream = held();
    const calls = serve(stream.answer, whole());
    const loading = mount((r) => (r.data?.rows.length ?? 0) === 15);
    stream.write({ batches: batches.slice(0, 15) });
    await loading.reached;
    loading.unsubscribe();
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(client.getQueryData<RangeData>(rangeQueryOptions(RANGE).queryKey)).toMatchObject({ complete: false });

    // Back: the 15 rows at once, then the rest, each batch once.
    const back = await view((r) => (r.data?.rows.length ?? 0) >= 15);
    expect(back.result.data!.rows).toHaveLength(15);
    const finished = await view(settled);
    expect(finished.result.data!.rows.map((r) => r.batch.batch_id)).toEqual(batches.map((b) => b.batch_id));
    expect(calls).toHaveLength(2);
    back.unsubscribe();
    finished.unsubscribe();
  });
});
