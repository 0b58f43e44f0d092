import { expect, test } from '@playwright/test';
import { api, sandbox, signIn, walkApi, type ApiBatch } from './support';

const FIELDS = [
  'batch_id',
  'batch_name',
  'batch_creation_date',
  'crop_type',
  'number_of_images',
  'total_cells_per_tray',
  'avg_germinated_seedlings',
  'avg_non_germinated_seedlings',
  'avg_germination_rate',
  'avg_usable_seedlings',
  'avg_non_usable_cells',
  'avg_usable_seedling_rate',
  'avg_coefficient_of_variation',
  'avg_median_seedling_size_mm2',
  'scanned_by_email',
  'analysis_link',
  'comment',
  'warnings',
];
const RANGE = { start_date: '2025-03-01T00:00:00Z', end_date: '2025-06-30T23:59:59+00:00' };

let cookie: string;
let reference: ApiBatch[];

test.beforeAll(async () => {
  await sandbox('POST', '/_sandbox/reset');
  cookie = await signIn();
  reference = (await walkApi(cookie, RANGE)).batches;
});
test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test('401 without a session', async () => {
  const response = await api('/api/batches');
  expect(response.status).toBe(401);
  expect((await response.json()).detail).toBe('session: not signed in');
});

test('one upstream page per call, batches exactly as the service returns them', async () => {
  const response = await api(`/api/batches?${new URLSearchParams(RANGE)}`, { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = await response.json();
  expect(Object.keys(body)).toEqual(['data', 'nextCursor']);
  expect(body.data).toHaveLength(100);
  expect(typeof body.nextCursor).toBe('string');
  for (const batch of body.data) {
    expect(Object.keys(batch)).toEqual(FIELDS);
    expect(batch.avg_germination_rate === null || /^\d+\.\d{2}$/.test(batch.avg_germination_rate)).toBe(true);
  }
  const stats = await sandbox('GET', '/_sandbox/stats');
  expect(stats.batchRequests).toBe(1);
});

test('walking the cursor gives every batch of the range once, in order', async () => {
  expect(reference.length).toBeGreaterThan(300);
  expect(new Set(reference.map((b) => b.batch_id)).size).toBe(reference.length);
  const dates = reference.map((b) => Date.parse(b.batch_creation_date as string));
  expect(dates.every((d) => d >= Date.parse(RANGE.start_date) && d <= Date.parse(RANGE.end_date))).toBe(true);
  expect(dates).toEqual([...dates].sort((a, b) => a - b));
});

for (const [query, field] of [
  ['start_date=2025-03-01', 'start_date'],
  ['end_date=2025-03-01T00:00:00', 'end_date'],
  ['start_date=2025-03-01T00:00:00%2B02:00', 'start_date'],
  ['end_date=2025-02-30T00:00:00Z', 'end_date'],
  ['start_date=a&start_date=b', 'start_date'],
  ['limit=5', 'limit'],
  [`cursor=${'x'.repeat(5000)}`, 'cursor'],
] as const) {
  test(`422 naming ${field} for ${query.slice(0, 40)}, before any upstream call`, async () => {
    const response = await api(`/api/batches?${query}`, { cookie });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(new RegExp(`^${field}: `));
    expect((await sandbox('GET', '/_sandbox/stats')).batchRequests).toBe(0);
  });
}

test('a cursor the service refuses is 422 naming cursor', async () => {
  const response = await api('/api/batches?cursor=forged', { cookie });
  expect(response.status).toBe(422);
  expect((await response.json()).detail).toMatch(/^cursor: /);
});

test('token expiry and revocation in the middle of paging lose and repeat nothing', async () => {
  await sandbox('POST', '/_sandbox/faults', { tokenTtlS: 0.3, latencyMs: 30 });
  const params = new URLSearchParams(RANGE);
  const first = await (await api(`/api/batches?${params}`, { cookie })).json();
  await sandbox('POST', '/_sandbox/revoke-tokens');
  const rest = [];
  let cursor: string | null = first.nextCursor;
  while (cursor) {
    const page = await (await api(`/api/batches?${new URLSearchParams({ ...RANGE, cursor })}`, { cookie })).json();
    rest.push(...page.data);
    cursor = page.nextCursor;
  }
  expect([...first.data, ...rest]).toEqual(reference);
  expect((await sandbox('GET', '/_sandbox/stats')).tokensIssuedByOrg['org-demo']).toBeGreaterThan(1);
});

test('a 503 burst is retried on the server: every page arrives, none twice', async () => {
  await sandbox('POST', '/_sandbox/faults', { fail503Every: 2, retryAfterS: 0 });
  const { batches } = await walkApi(cookie, RANGE);
  expect(batches).toEqual(reference);
  expect((await sandbox('GET', '/_sandbox/stats')).faultsServed).toBeGreaterThan(2);
});

test('a service still down after retries: 503 with Retry-After', async () => {
  await sandbox('POST', '/_sandbox/faults', { outage: true, retryAfterS: 0 });
  const response = await api('/api/batches', { cookie });
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('1');
  expect((await response.json()).detail).toMatch(/^Batch Data Service unavailable/);
});

test('malformed upstream answers are 502, a 500 is 502, no answer is 504', async () => {
  for (const [kind, status, detail] of [
    ['malformed-json', 502, /valid JSON/],
    ['wrong-shape', 502, /avg_germination_rate/],
    ['500', 502, /answered 500/],
    ['hang', 504, /timed out/],
  ] as const) {
    await sandbox('POST', '/_sandbox/inject', { kind });
    const response = await api('/api/batches', { cookie });
    expect(response.status, kind).toBe(status);
    expect((await response.json()).detail).toMatch(detail);
  }
});
