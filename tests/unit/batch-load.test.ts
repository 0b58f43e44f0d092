import { describe, expect, it } from 'vitest';
import { encodeStreamLine, type Batch, type StreamLine } from '@/lib/contract';
import { ApiFailure } from '@/lib/explorer/api-failure';
import { loadRange, type RangeData } from '@/lib/explorer/batch-load';
import { readNdjson } from '@/lib/explorer/ndjson';
import { generateBatches } from '@/sandbox/data/generate';
import { body, bytes, chunked, held, ok, scripted, waitFor } from '../helpers/stream';

const batches = generateBatches({
  seed: 'batch-load',
  count: 60,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
});
const ids = (rows: readonly { batch: Batch }[]) => rows.map((r) => r.batch.batch_id);
const inCreationOrder = ids(batches.map((batch) => ({ batch })));
/** Runs a load, keeping everything it published. */
async function load(fetch: typeof globalThis.fetch, options: { from?: RangeData; signal?: AbortSignal } = {}) {
  const published: RangeData[] = [];
  const result = await loadRange(
    { start_date: '2025-01-01T00:00:00Z' },
    { ...options, fetch, publish: (d) => published.push(d) },
  ).catch((e: unknown) => e);
  return { result, published, last: published.at(-1) };
}

describe('readNdjson', () => {
  it('hands out whole lines however the bytes are cut, multi-byte characters included, skipping empty lines', async () => {
    const text = '{"a":"Pak choi 小白菜"}\n\n{"b":2}\r\n{"c":"🌱"}\n';
    for (const size of [1, 2, 3, 7, 1000]) {
      const chunks: Uint8Array[] = [];
      const all = bytes(text);
      for (let i = 0; i < all.length; i += size) chunks.push(all.slice(i, i + size));
      const lines: string[] = [];
      expect(await readNdjson(body(chunks), (l) => lines.push(l))).toBe(true);
      expect(lines.map((l) => JSON.parse(l))).toEqual([{ a: 'Pak choi 小白菜' }, { b: 2 }, { c: '🌱' }]);
    }
  });

  it('says so when the body ends in the middle of a line', async () => {
    const lines: string[] = [];
    expect(await readNdjson(body(['{"a":1}\n{"b":']), (l) => lines.push(l))).toBe(false);
    expect(lines).toEqual(['{"a":1}']);
  });
});

describe('loadRange through its fetch seam', () => {
  const full: StreamLine[] = [
    { batches: batches.slice(40) },
    { batches: batches.slice(0, 25) },
    { batches: batches.slice(20, 40) },
    { done: true, count: 60 },
  ];

  it('partial lines: every batch once, in creation order, whatever the chunks and the order of pages', async () => {
    for (const size of [5, 64, 4096]) {
      const { fetch, calls } = scripted(ok(chunked(full, size)));
      const { result, published } = await load(fetch);
      expect(ids((result as RangeData).rows)).toEqual(inCreationOrder);
      expect((result as RangeData).complete).toBe(true);
      expect(published.at(-1)).toMatchObject({ complete: true, remaining: null });
      // The first rows are shown at once, the rest in few publishes, not one per page.
      expect(published[0]!.rows.length).toBe(20);
      expect(published.length).toBeLessThanOrEqual(3);
      expect(calls[0]!.url).toBe('/api/batches/stream?start_date=2025-01-01T00%3A00%3A00Z');
    }
  });

  it('a broken line: the rows before it are kept and the failure says the server sent something unreadable', async () => {
    const { fetch } = scripted(
      ok([bytes(encodeStreamLine({ batches: batches.slice(0, 10) })), bytes('{"batches": [oops\n')]),
    );
    const { result, last } = await load(fetch);
    expect(result).toBeInstanceOf(ApiFailure);
    expect(result).toMatchObject({ status: 0, detail: 'The dashboard server sent a line that could not be read.' });
    expect(ids(last!.rows)).toEqual(inCreationOrder.slice(0, 10));
    expect(last).toMatchObject({ complete: false, remaining: null });
  });

  it('a line of another shape is broken too, not ignored', async () => {
    const { fetch } = scripted(ok([bytes('{"rows": []}\n')]));
    expect((await load(fetch)).result).toMatchObject({
      status: 0,
      detail: 'The dashboard server sent a line that could not be read.',
    });
  });

  it('an error line: its problem is the failure, and a retry asks only for the remaining parts, adding nothing twice', async () => {
    const remaining = '2025-03-01T00:00:00.000Z~2025-06-01T00:00:00.000Z,2025-09-01T00:00:00.000Z~';
    const failing: StreamLine[] = [
      { batches: batches.slice(0, 30) },
      { error: { status: 503, detail: 'Batch Data Service unavailable: down', retryAfterS: 4 }, remaining },
    ];
    // The resumed parts share boundary instants with what came before: batches 25-29 arrive a second time.
    const resumed: StreamLine[] = [{ batches: batches.slice(25) }, { done: true, count: 35 }];
    const { fetch, calls } = scripted(ok(chunked(failing, 100)), ok(chunked(resumed, 100)));
    const first = await load(fetch);
    expect(first.result).toBeInstanceOf(ApiFailure);
    expect(first.result).toMatchObject({ status: 503, detail: 'Batch Data Service unavailable: down', retryAfterS: 4 });
    expect(first.last).toMatchObject({ complete: false, remaining });
    expect(first.last!.rows).toHaveLength(30);

    const retry = await load(fetch, { from: first.last });
    // The retry shows at once that it is under way, with the rows already here.
    expect(retry.published[0]).toMatchObject({ complete: false });
    expect(retry.published[0]!.rows).toHaveLength(30);
    expect(new URL(calls[1]!.url, 'http://app.test').searchParams.get('parts')).toBe(remaining);
    expect(ids((retry.result as RangeData).rows)).toEqual(inCreationOrder);
  });

  it('a stream that ends without its done line, or mid-line, broke off; the rows stay', async () => {
    for (const chunks of [
      chunked([{ batches: batches.slice(0, 5) }], 50),
      [bytes(encodeStreamLine({ batches: batches.slice(0, 5) })), bytes('{"done":')],
    ]) {
      const { fetch } = scripted(ok(chunks));
      const { result, last } = await load(fetch);
      expect(result).toMatchObject({ status: 0, detail: 'The connection to the dashboard server broke off.' });
      expect(last!.rows).toHaveLength(5);
    }
  });

  it('broken off after lines naming what was pending: a retry asks only for the parts the last line named', async () => {
    const early = '2025-01-01T00:00:00.000Z~2025-03-01T00:00:00.000Z,2025-06-01T00:00:00.000Z~';
    const later = '2025-06-01T00:00:00.000Z~';
    const cut: StreamLine[] = [
      { batches: batches.slice(0, 20), pending: early },
      { batches: batches.slice(20, 45), pending: later },
    ];
    // The resumed part shares its first instant with what came before: batches 40-44 arrive a second time.
    const resumed: StreamLine[] = [{ batches: batches.slice(40) }, { done: true, count: 20 }];
    const { fetch, calls } = scripted(ok(chunked(cut, 64)), ok(chunked(resumed, 64)));
    const first = await load(fetch);
    expect(first.result).toMatchObject({ status: 0, detail: 'The connection to the dashboard server broke off.' });
    // The page names what is missing: the parts the last line that arrived named.
    expect(first.last).toMatchObject({ complete: false, remaining: later, pending: later });
    const retry = await load(fetch, { from: first.last });
    expect(new URL(calls[1]!.url, 'http://app.test').searchParams.get('parts')).toBe(later);
    expect(ids((retry.result as RangeData).rows)).toEqual(inCreationOrder);
  });

  it('broken off before any line named a part, or with nothing left but the end line: the whole range again', async () => {
    for (const cut of [
      [{ batches: batches.slice(0, 5) }],
      [{ batches: batches.slice(0, 5), pending: '' }],
    ] as StreamLine[][]) {
      const { fetch, calls } = scripted(
        ok(chunked(cut, 50)),
        ok(chunked([{ batches }, { done: true, count: 60 }], 512)),
      );
      const first = await load(fetch);
      expect(first.last).toMatchObject({ complete: false, remaining: null, pending: null });
      const retry = await load(fetch, { from: first.last });
      expect(new URL(calls[1]!.url, 'http://app.test').searchParams.has('parts')).toBe(false);
      expect(ids((retry.result as RangeData).rows)).toEqual(inCreationOrder);
    }
  });

  it('an answer that is not 200 carries our API’s detail and Retry-After', async () => {
    const { fetch } = scripted(() => Response.json({ detail: 'session: expired; sign in again' }, { status: 401 }));
    expect((await load(fetch)).result).toMatchObject({
      status: 401,
      detail: 'session: expired; sign in again',
      retryAfterS: null,
    });
    const busy = scripted(() =>
      Response.json({ detail: 'Batch Data Service unavailable: x' }, { status: 503, headers: { 'retry-after': '5' } }),
    );
    expect((await load(busy.fetch)).result).toMatchObject({ status: 503, retryAfterS: 5 });
  });

  it('a server that cannot be reached is said so', async () => {
    const { fetch } = scripted(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await load(fetch)).result).toMatchObject({
      status: 0,
      detail: 'The dashboard server could not be reached.',
    });
  });

  it('an abort stops the stream, keeps what arrived, and rejects with the abort reason', async () => {
    const controller = new AbortController();
    const stream = held();
    const { fetch, calls } = scripted(stream.answer);
    const arrived = waitFor<RangeData>((d) => d.rows.length === 12);
    const running = loadRange({}, { fetch, signal: controller.signal, publish: arrived.notify });
    stream.write({ batches: batches.slice(0, 12) });
    const kept = await arrived.reached;
    controller.abort(new Error('nobody watches'));
    await expect(running).rejects.toEqual(new Error('nobody watches'));
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(kept).toMatchObject({ complete: false, remaining: null });
  });

  it('a load resumed after an abort keeps its rows, asks for the range again and adds nothing twice', async () => {
    const controller = new AbortController();
    const stream = held();
    const first = scripted(stream.answer);
    const arrived = waitFor<RangeData>((d) => d.rows.length === 12);
    const paused = loadRange({}, { fetch: first.fetch, signal: controller.signal, publish: arrived.notify }).catch(
      () => undefined,
    );
    stream.write({ batches: batches.slice(0, 12) });
    const kept = await arrived.reached;
    controller.abort(new Error('nobody watches'));
    await paused;

    // The whole range comes again (which parts were done is not known after a pause): every batch once.
    const { fetch, calls } = scripted(ok(chunked([{ batches }, { done: true, count: 60 }], 512)));
    const { result, published } = await load(fetch, { from: kept });
    expect(published[0]!.rows).toBe(kept.rows); // shown at once
    expect(new URL(calls[0]!.url, 'http://app.test').searchParams.has('parts')).toBe(false);
    expect(ids((result as RangeData).rows)).toEqual(inCreationOrder);
  });
});
