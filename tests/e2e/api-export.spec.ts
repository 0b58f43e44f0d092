import { expect, test } from '@playwright/test';
import { readCsv } from '../helpers/csv';
import { api, sandbox, signIn, walkApi } from './support';

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test('streams every batch of the range with a header row of the service field names', async () => {
  const cookie = await signIn();
  const range = { start_date: '2025-01-01T00:00:00Z', end_date: '2025-12-31T23:59:59Z' };
  const { batches } = await walkApi(cookie, range);
  const response = await api(`/api/batches/export?${new URLSearchParams(range)}`, { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toBe('attachment; filename="batches-2025-01-01-to-2025-12-31.csv"');
  const rows = readCsv(await response.text());
  expect(rows[0]).toEqual(Object.keys(batches[0]!));
  expect(rows).toHaveLength(batches.length + 1);
  expect(rows.slice(1).map((r) => r[0])).toEqual(batches.map((b) => b.batch_id));
});

test('hostile text round-trips and formulas are neutralized', async () => {
  const cookie = await signIn({ clientId: 'edge-client', clientSecret: 'edge-secret' });
  const { batches } = await walkApi(cookie);
  const rows = readCsv(await (await api('/api/batches/export', { cookie })).text());
  const header = rows[0]!;
  const byId = new Map(rows.slice(1).map((r) => [r[0], Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
  expect(byId.size).toBe(batches.length);
  for (const batch of batches) {
    const row = byId.get(batch.batch_id)!;
    for (const field of ['batch_name', 'comment'] as const) {
      const value = batch[field] as string | null;
      if (value === null) expect(row[field]).toBe('');
      else if (/^[=+\-@\t\r]/.test(value)) expect(row[field]).toBe(`'${value}`);
      else expect(row[field]).toBe(value);
    }
    expect(row.warnings).toBe(String(batch.warnings));
    expect(row.avg_germination_rate).toBe(batch.avg_germination_rate ?? '');
  }
  expect(byId.get('00000000-0000-4000-8000-000000000012')!.comment).toBe('Line one,\nline "two"\r\nline three');
  expect(byId.get('00000000-0000-4000-8000-000000000009')!.batch_name).toBe(`'=HYPERLINK("http://evil.example","click")`);
});

test('bad input and no session get their statuses before any streaming', async () => {
  expect((await api('/api/batches/export')).status).toBe(401);
  const cookie = await signIn();
  const bad = await api('/api/batches/export?end_date=tomorrow', { cookie });
  expect(bad.status).toBe(422);
  expect((await bad.json()).detail).toMatch(/^end_date: /);
  await sandbox('POST', '/_sandbox/faults', { outage: true, retryAfterS: 0 });
  expect((await api('/api/batches/export', { cookie })).status).toBe(503);
});
