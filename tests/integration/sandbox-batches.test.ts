import { describe, expect, it } from 'vitest';
import { BatchPageSchema } from '@/lib/batch-api/schemas';
import { BATCH_FIELDS } from '@/lib/contract';
import { BatchSchema } from '@/lib/contract/schemas';
import { EDGE_CREDENTIALS, OTHER_CREDENTIALS } from '@/sandbox/organisations';
import { getBatches, tokenFor, sandboxForFile, walkV2 } from '../helpers/sandbox';

const sandbox = sandboxForFile({ pageSize: 50, batches: 1200 });
type Raw = Record<string, unknown> & { batch_id: string; batch_creation_date: string };

describe('sandbox: GET /v1/batches and /v2/batches (docs/batch-data-service.md: batches, listing, paging)', () => {
  it('v1 answers a flat array with every batch of the organisation', async () => {
    const token = await tokenFor(sandbox(), 'v1');
    const response = await getBatches(sandbox(), 'v1', token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Raw[];
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(1200);
  });

  it('every batch has exactly the 18 fields with the types and serialization of the contract', async () => {
    const token = await tokenFor(sandbox(), 'v1');
    const body = (await (await getBatches(sandbox(), 'v1', token)).json()) as Raw[];
    for (const batch of body) {
      expect(Object.keys(batch)).toEqual(BATCH_FIELDS);
      BatchSchema.parse(batch);
      for (const field of BATCH_FIELDS.filter((f) => f.startsWith('avg_'))) {
        const value = batch[field];
        if (value !== null) expect(value).toMatch(/^\d+\.\d{2}$/);
      }
      expect(typeof batch.warnings).toBe('boolean');
      expect(batch.batch_creation_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(body.some((b) => b.comment === null)).toBe(true);
  });

  it('v2 pages: {data, next_token}, the last page has next_token null, same data as v1, none twice', async () => {
    const v2 = await tokenFor(sandbox(), 'v2');
    const { batches, pages } = await walkV2(sandbox(), v2);
    expect(pages).toBe(Math.ceil(1200 / 50));
    const v1 = (await (await getBatches(sandbox(), 'v1', await tokenFor(sandbox(), 'v1'))).json()) as Raw[];
    expect(batches).toEqual(v1);
    expect(new Set(batches.map((b) => b.batch_id)).size).toBe(1200);
    const first = await (await getBatches(sandbox(), 'v2', v2)).json();
    expect(BatchPageSchema.parse(first).data).toHaveLength(50);
  });

  it('filters are inclusive, optional, usable alone or together, and compare batch_creation_date', async () => {
    const token = await tokenFor(sandbox(), 'v2');
    const { batches: all } = await walkV2(sandbox(), token);
    const pivot = all[600]!.batch_creation_date;
    const later = all[900]!.batch_creation_date;
    const { batches: fromPivot } = await walkV2(sandbox(), token, { start_date: pivot });
    const { batches: toPivot } = await walkV2(sandbox(), token, { end_date: pivot });
    const { batches: between } = await walkV2(sandbox(), token, {
      start_date: pivot,
      end_date: later.replace('Z', '+00:00'),
    });
    const at = (b: Raw) => Date.parse(b.batch_creation_date);
    expect(fromPivot).toEqual(all.filter((b) => at(b) >= Date.parse(pivot)));
    expect(toPivot).toEqual(all.filter((b) => at(b) <= Date.parse(pivot)));
    expect(between).toEqual(all.filter((b) => at(b) >= Date.parse(pivot) && at(b) <= Date.parse(later)));
    expect(fromPivot.some((b) => b.batch_creation_date === pivot)).toBe(true);
    expect(toPivot.some((b) => b.batch_creation_date === pivot)).toBe(true);
  });

  it('an empty range and a reversed range answer an empty last page', async () => {
    const token = await tokenFor(sandbox(), 'v2');
    for (const query of [
      { start_date: '2000-01-01T00:00:00Z', end_date: '2000-12-31T00:00:00Z' },
      { start_date: '2026-01-01T00:00:00Z', end_date: '2025-01-01T00:00:00Z' },
    ]) {
      const body = await (await getBatches(sandbox(), 'v2', token, query)).json();
      expect(body).toEqual({ data: [], next_token: null });
    }
  });

  it.each([
    ['no timezone', { start_date: '2025-01-01T00:00:00' }, 'start_date'],
    ['a date only', { end_date: '2025-01-01' }, 'end_date'],
    ['a non-UTC offset', { start_date: '2025-01-01T00:00:00+02:00' }, 'start_date'],
    ['an impossible day', { end_date: '2025-02-30T00:00:00Z' }, 'end_date'],
    ['garbage', { start_date: 'last tuesday' }, 'start_date'],
    ['an empty value', { start_date: '' }, 'start_date'],
    ['a repeated parameter', { start_date: ['2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z'] }, 'start_date'],
  ])('422 naming the field for %s', async (_, query, field) => {
    const token = await tokenFor(sandbox(), 'v1');
    const url = new URL(`${sandbox().url}/v1/batches`);
    for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) url.searchParams.append(k, one);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(new RegExp(`^${field}:`));
  });

  it('ties in batch_creation_date never split or repeat across pages', async () => {
    const token = await tokenFor(sandbox(), 'v2', EDGE_CREDENTIALS);
    const url = `${sandbox().url}/v2/batches?end_date=2025-01-01T00:00:00Z`;
    const body = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(body.data.map((b: Raw) => b.batch_name)).toEqual([
      'Midnight on New Year (UTC)',
      'Same second as edge case 1',
    ]);
  });
});

describe('sandbox: cursors and organisations', () => {
  it('organisations are isolated', async () => {
    const demo = await walkV2(sandbox(), await tokenFor(sandbox(), 'v2'));
    const other = await walkV2(sandbox(), await tokenFor(sandbox(), 'v2', OTHER_CREDENTIALS));
    expect(other.batches.length).toBeGreaterThan(0);
    const demoIds = new Set(demo.batches.map((b) => b.batch_id));
    expect(other.batches.some((b) => demoIds.has(b.batch_id))).toBe(false);
  });

  it('a tampered cursor, a foreign cursor and a cursor for other filters are 422, never 500', async () => {
    const demo = await tokenFor(sandbox(), 'v2');
    const other = await tokenFor(sandbox(), 'v2', OTHER_CREDENTIALS);
    const first = await (await getBatches(sandbox(), 'v2', demo)).json();
    const cursor: string = first.next_token;
    const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    const cases: [string, Record<string, string>][] = [
      [demo, { next_token: flipped }],
      [demo, { next_token: 'garbage' }],
      [demo, { next_token: `${cursor}.x` }],
      [other, { next_token: cursor }],
      [demo, { next_token: cursor, start_date: '2020-01-01T00:00:00Z' }],
    ];
    for (const [token, query] of cases) {
      const response = await getBatches(sandbox(), 'v2', token, query);
      expect(response.status).toBe(422);
      expect((await response.json()).detail).toMatch(/^next_token:/);
    }
    expect((await getBatches(sandbox(), 'v2', demo, { next_token: cursor })).status).toBe(200);
  });

  it('the same seed gives the same data', async () => {
    const { startSandbox } = await import('@/sandbox/server');
    const twin = await startSandbox({ ...sandbox().config, port: 0 });
    try {
      // The analysis links name each sandbox's own origin (their ports differ).
      const all = (s: typeof twin) =>
        s.organisations[0]!.jsonOf(0, s.organisations[0]!.batches.length).map((json) =>
          json.replaceAll(s.publicUrl, '<origin>'),
        );
      expect(all(twin)).toEqual(all(sandbox()));
    } finally {
      await twin.close();
    }
  });
});
