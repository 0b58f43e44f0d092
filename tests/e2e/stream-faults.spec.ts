import { expect, test } from '@playwright/test';
import { api, idsOf, sandbox, streamLines, wholeRangeFixture } from './support';

const whole = wholeRangeFixture();

/**
 * Loads the whole range as the browser does: read the stream; after an error line, ask for the parts it
 * names (at most 3 times). `during` runs once the first line has arrived. Returns every id received and
 * the errors seen on the way.
 */
async function loadResuming(during: () => Promise<unknown> = async () => {}) {
  const ids: string[] = [];
  const errors: { status: number; detail: string }[] = [];
  let parts: string | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    const response = await api(`/api/batches/stream${parts ? `?parts=${encodeURIComponent(parts)}` : ''}`, {
      cookie: whole.cookie,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let first = true;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      text += decoder.decode(r.value, { stream: true });
      if (first && text.includes('\n') && attempt === 0) {
        first = false;
        await during();
      }
    }
    const lines = streamLines(text);
    ids.push(...idsOf(lines));
    const end = lines.at(-1)!;
    if (end.done) return { ids, errors };
    expect(end.error, JSON.stringify(end)).toBeTruthy();
    errors.push(end.error!);
    parts = end.remaining;
  }
  throw new Error(`did not complete: ${JSON.stringify(errors)}`);
}

function expectEverythingOnce(ids: string[]) {
  expect([...new Set(ids)].sort()).toEqual(whole.everything);
}

test('tokens expiring every 2 s while a slow load runs: every batch, no error', async () => {
  await sandbox('POST', '/_sandbox/faults', { tokenTtlS: 2, latencyMs: 400 });
  await sandbox('POST', '/_sandbox/revoke-tokens'); // the server's cached token dates from before the switch
  const { ids, errors } = await loadResuming();
  expect(errors).toEqual([]);
  // The load outlived a token or two: the server asked for new ones on its own.
  expect((await sandbox('GET', '/_sandbox/stats')).authRequests).toBeGreaterThanOrEqual(2);
  expect(ids.length).toBe(new Set(ids).size);
  expectEverythingOnce(ids);
});

test('every token revoked in the middle of paging, 200 ms per request: the server signs in again, every batch once', async () => {
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 200 });
  const { ids, errors } = await loadResuming(() => sandbox('POST', '/_sandbox/revoke-tokens'));
  expect(errors).toEqual([]);
  expect(ids.length).toBe(new Set(ids).size);
  expectEverythingOnce(ids);
});

for (const [kind, status] of [
  ['500', 502],
  ['malformed-json', 502],
  ['wrong-shape', 502],
] as const) {
  test(`a ${kind} answer mid-way: a clear error line, and its parts complete the range`, async () => {
    await sandbox('POST', '/_sandbox/faults', { latencyMs: 100 });
    const { ids, errors } = await loadResuming(() => sandbox('POST', '/_sandbox/inject', { kind }));
    expect(errors.map((e) => e.status)).toEqual([status]);
    expect(errors[0]!.detail).toMatch(/Batch Data Service/);
    expectEverythingOnce(ids);
  });
}

for (const kind of ['reset', 'truncated'] as const) {
  test(`a ${kind} connection mid-way is retried by the server: every batch, no error`, async () => {
    await sandbox('POST', '/_sandbox/faults', { latencyMs: 100 });
    const { ids, errors } = await loadResuming(() => sandbox('POST', '/_sandbox/inject', { kind }));
    expect(errors).toEqual([]);
    expectEverythingOnce(ids);
  });
}

test('a service that stops answering: a timeout error line (504) within the deadline, then the rest', async () => {
  await sandbox('POST', '/_sandbox/faults', { latencyMs: 100 });
  const started = Date.now();
  const { ids, errors } = await loadResuming(() => sandbox('POST', '/_sandbox/inject', { kind: 'hang' }));
  expect(errors.map((e) => e.status)).toEqual([504]);
  expect(Date.now() - started).toBeLessThan(20_000);
  expectEverythingOnce(ids);
});
