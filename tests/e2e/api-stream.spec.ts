import { expect, test } from '@playwright/test';
import { api, idsOf, sandbox, streamLines, wholeRangeFixture, type LineView } from './support';

const whole = wholeRangeFixture();

const lines = async (response: Response): Promise<LineView[]> => streamLines(await response.text());

test('401 without a session; 422 naming the parameter for bad dates, bad parts and unknown parameters', async () => {
  expect((await api('/api/batches/stream')).status).toBe(401);
  for (const [query, field] of [
    ['start_date=2025-01-01', 'start_date'],
    ['end_date=2025-01-01T00:00:00%2B02:00', 'end_date'],
    ['parts=2025-01-01T00:00:00Z', 'parts'],
    ['parts=~2025-13-01T00:00:00Z', 'parts'],
    ['cursor=abc', 'cursor'],
    // Resume parts must be disjoint pieces of the range: no multiplying one request into many full loads.
    ['parts=~,~', 'parts'],
    ['parts=~2025-02-01T00:00:00Z,2025-01-01T00:00:00Z~', 'parts'],
    ['start_date=2025-01-01T00:00:00Z&parts=~2025-02-01T00:00:00Z', 'parts'],
    ['end_date=2025-01-01T00:00:00Z&parts=2024-12-01T00:00:00Z~2025-02-01T00:00:00Z', 'parts'],
    ['parts=2025-02-01T00:00:00Z~2025-01-01T00:00:00Z', 'parts'],
  ]) {
    const response = await api(`/api/batches/stream?${query}`, { cookie: whole.cookie });
    expect(response.status, query).toBe(422);
    expect((await response.json()).detail, query).toMatch(new RegExp(`^${field}: `));
  }
});

test('NDJSON of every batch, exactly the batches of sequential paging, each once', async () => {
  const response = await api('/api/batches/stream', { cookie: whole.cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/x-ndjson; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const ls = await lines(response);
  expect(ls.at(-1)).toEqual({ done: true, count: whole.everything.length });
  const ids = idsOf(ls);
  expect(ids.length).toBe(new Set(ids).size);
  expect(ids.sort()).toEqual(whole.everything);
  expect(ls.length).toBeGreaterThan(3);
});

test('a range of one page is one upstream request; an empty range is just the end line', async () => {
  const small = new URLSearchParams({ start_date: '2026-01-10T00:00:00Z', end_date: '2026-01-10T23:59:59.999Z' });
  await sandbox('POST', '/_sandbox/reset');
  const ls = await lines(await api(`/api/batches/stream?${small}`, { cookie: whole.cookie }));
  expect(ls.at(-1)).toMatchObject({ done: true });
  expect((await sandbox('GET', '/_sandbox/stats')).batchRequests).toBe(1);
  expect(
    await lines(await api('/api/batches/stream?start_date=2040-01-01T00:00:00Z', { cookie: whole.cookie })),
  ).toEqual([{ done: true, count: 0 }]);
});

test('a failure mid-way ends with an error line naming the parts left; those parts complete the range', async () => {
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 30 });
  const response = await api('/api/batches/stream', { cookie: whole.cookie });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value, { stream: true });
  await sandbox('POST', '/_sandbox/inject', { kind: 'malformed-json' });
  for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
  const first = streamLines(text);
  expect(idsOf(first).length).toBeGreaterThan(0);
  expect(idsOf(first).length).toBeLessThan(whole.everything.length);
  const end = first.at(-1)!;
  expect(end.error).toMatchObject({ status: 502 });
  expect(end.remaining).toMatch(/~/);

  const rest = await lines(
    await api(`/api/batches/stream?parts=${encodeURIComponent(end.remaining!)}`, { cookie: whole.cookie }),
  );
  expect(rest.at(-1)).toMatchObject({ done: true });
  const got = new Set([...idsOf(first), ...idsOf(rest)]);
  expect([...got].sort()).toEqual(whole.everything);
});

test('a 503 on every 5th upstream request: the stream still holds every batch exactly once', async () => {
  await sandbox('POST', '/_sandbox/faults', { fail503Every: 5, retryAfterS: 0 });
  const ls = await lines(await api('/api/batches/stream', { cookie: whole.cookie }));
  expect(ls.at(-1)).toEqual({ done: true, count: whole.everything.length });
  const ids = idsOf(ls);
  expect(ids.length).toBe(new Set(ids).size);
  expect(ids.sort()).toEqual(whole.everything);
  expect((await sandbox('GET', '/_sandbox/stats')).faultsServed).toBeGreaterThan(3);
});
