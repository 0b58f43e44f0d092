import { expect, test } from '@playwright/test';
import type { Targets } from '../../lib/contract';
import { readCsv } from '../helpers/csv';
import { readXlsx } from '../helpers/xlsx';
import { batchesOn, daysAgo, resetTargets } from './analysis-figures';
import { signInContext } from './signed-in';
import { api, APP_URL, EDGE, exportFrom, sandbox, signIn, SPECIAL, status, walkApi } from './support';

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test('streams every batch of the range with a header row of the service field names', async () => {
  const cookie = await signIn();
  const range = { start_date: '2025-01-01T00:00:00Z', end_date: '2025-12-31T23:59:59Z' };
  const { batches } = await walkApi(cookie, range);
  const response = await api(`/api/batches/export?${new URLSearchParams(range)}`, { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toBe(
    'attachment; filename="Greenfield-Seeds-demo-batches-2025-01-01-to-2025-12-31-api-fields.csv"',
  );
  const rows = readCsv(await response.text());
  expect(rows[0]).toEqual(Object.keys(batches[0]!));
  expect(rows).toHaveLength(batches.length + 1);
  expect(rows.slice(1).map((r) => r[0])).toEqual(batches.map((b) => b.batch_id));
});

test('the file is named after the organisation, in ASCII and, where its name is more, in UTF-8 beside (RFC 6266)', async () => {
  const response = await api('/api/batches/export?format=xlsx', { method: 'HEAD', cookie: await signIn(SPECIAL) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-disposition')).toBe(
    `attachment; filename="Special-Co-batches-all-time.xlsx"; filename*=UTF-8''Sp%C3%A9cial-Co-batches-all-time.xlsx`,
  );
});

test('hostile text round-trips and formulas are neutralized', async () => {
  const cookie = await signIn(EDGE);
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
  expect(byId.get('00000000-0000-4000-8000-000000000009')!.batch_name).toBe(
    `'=HYPERLINK("http://evil.example","click")`,
  );
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

test('format=xlsx streams a workbook of the chosen columns, in the zone, read back by another reader', async () => {
  const cookie = await signIn(EDGE);
  const { batches } = await walkApi(cookie);
  const response = await api(
    '/api/batches/export?format=xlsx&zone=America/New_York&columns=name,date,germination,warnings,analysis',
    { cookie },
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  expect(response.headers.get('content-disposition')).toBe('attachment; filename="Edge-cases-batches-all-time.xlsx"');
  const x = await readXlsx(Buffer.from(await response.arrayBuffer()));
  const [header, ...rows] = x.sheets[0]!.rows;
  expect(header).toEqual(['Batch', 'Created (America/New_York)', 'Germination (%)', 'Warnings', 'Analysis']);
  expect(rows).toHaveLength(batches.length);
  const newYork = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    dateStyle: 'short',
    timeStyle: 'medium',
    hourCycle: 'h23',
  });
  rows.forEach((row, i) => {
    const b = batches[i]!;
    expect(row[0]).toBe(b.batch_name);
    const at = new Date(Math.round((row[1] as Date).getTime() / 1000) * 1000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ', ');
    expect(at).toBe(newYork.format(Date.parse(b.batch_creation_date as string)));
    expect(row[2]).toBe(b.avg_germination_rate === null ? null : Number(b.avg_germination_rate));
    expect(row[3]).toBe(b.warnings ? 'Yes' : 'No');
    expect(x.hyperlinks.get(`E${i + 2}`) ?? null).toBe(
      /^https?:/.test(String(b.analysis_link)) ? b.analysis_link : null,
    );
  });
  expect(x.formulas).toBe(0);
  const view = Object.fromEntries(x.sheets[1]!.rows.map((r) => [r[0], r[1]]));
  expect(view).toMatchObject({
    Organisation: EDGE.orgName,
    'Time zone': 'America/New_York',
    'Data complete': 'Yes',
    Batches: String(batches.length),
  });
});

test('format=xlsx follows the reader’s language', async () => {
  const cookie = await signIn();
  const response = await api('/api/batches/export?format=xlsx&columns=warnings', {
    cookie,
    headers: { 'accept-language': 'de-DE,de;q=0.9' },
  });
  const x = await readXlsx(Buffer.from(await response.arrayBuffer()));
  expect(x.sheets.map((s) => s.name)).toEqual(['Chargen', 'Ansicht']);
  expect(x.sheets[0]!.rows[0]).toEqual(['Warnungen']);
  expect(new Set(x.sheets[0]!.rows.slice(1).map((r) => r[0]))).toEqual(new Set(['Ja', 'Nein']));
});

test.describe('a de-DE reader', () => {
  test.use({ locale: 'de-DE' });
  test.afterEach(resetTargets);

  test('format=xlsx: the View sheet names the targets in force as the page’s own export does, in the reader’s words', async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    const cookie = await signInContext(context);
    // Lettuce has targets of its own and inherits the general usable one; the other crops inherit them all.
    const targets: Targets = {
      general: { germination: 90, usable: 80, cv: null },
      crops: { Lettuce: { germination: 85, usable: null, cv: 30 } },
    };
    expect(
      (await api('/api/settings/targets', { method: 'PUT', cookie, json: { targets }, headers: { origin: APP_URL } }))
        .status,
    ).toBe(200);
    const FROM = daysAgo(60),
      TO = daysAgo(31);
    const crops = [...new Set((await batchesOn(cookie, FROM, TO)).map((b) => b.crop_type as string | null))];
    expect(crops).toContain('Lettuce');
    expect(crops.length).toBeGreaterThan(2);

    const response = await api(
      `/api/batches/export?format=xlsx&start_date=${FROM}T00:00:00Z&end_date=${TO}T23:59:59.999999Z`,
      {
        cookie,
        headers: { 'accept-language': 'de-DE,de;q=0.9' },
      },
    );
    expect(response.status).toBe(200);
    const server = await readXlsx(Buffer.from(await response.arrayBuffer()));
    const said = Object.fromEntries(server.sheets[1]!.rows.map((r) => [r[0], r[1]]))['Sollwerte'] as string;
    // German writes a no-break space before %: compared as a plain one.
    const lines = said.replace(/[\u00a0\u202f]/g, ' ').split('; ');
    expect(lines[0]).toBe('Allgemein: Keimrate 90,0 %, nutzbare Sämlinge 80,0 %, VK-Schwellenwert keiner');
    expect(lines).toContain(
      'Lettuce: Keimrate 85,0 % (eigener), nutzbare Sämlinge 80,0 % (allgemein), VK-Schwellenwert 30,0 % (eigener)',
    );
    // Every other crop of the range, judged alike, on one line.
    const others = crops.filter((c): c is string => c !== null && c !== 'Lettuce').sort((a, b) => a.localeCompare(b));
    expect(lines).toContain(
      `${others.join(', ')}: Keimrate 90,0 % (allgemein), nutzbare Sämlinge 80,0 % (allgemein), VK-Schwellenwert keiner`,
    );
    expect(lines).toHaveLength(3);

    // The page's workbook of the same days says the same.
    await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}`);
    await expect(status(page)).toHaveText(/^[\d.]+ Chargen$/, { timeout: 30_000 });
    const book = await readXlsx((await exportFrom(page, 'Excel (.xlsx)', 'Exportieren')).bytes);
    expect(Object.fromEntries(book.sheets[1]!.rows.map((r) => [r[0], r[1]]))['Sollwerte']).toBe(said);
  });
});

test('an unknown format, zone or column is refused with 422 naming the field', async () => {
  const cookie = await signIn();
  for (const [query, field] of [
    ['format=pdf', 'format'],
    ['format=xlsx&zone=Mars/Olympus', 'zone'],
    ['format=xlsx&columns=name,secret', 'columns'],
    ['format=xlsx&columns=name,name', 'columns'],
  ]) {
    const response = await api(`/api/batches/export?${query}`, { cookie });
    expect(response.status, query).toBe(422);
    expect((await response.json()).detail).toMatch(new RegExp(`^${field}: `));
  }
});
