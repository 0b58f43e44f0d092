import { beforeEach, describe, expect, it } from 'vitest';
import * as exported from '@/app/api/batches/export/route';
import * as session from '@/app/api/session/route';
import { bffForFile, DEMO, request, sessionCookieOf } from '../helpers/bff';
import { BATCH_FIELDS } from '@/lib/contract';
import { hashPassword } from '@/lib/server/people/passwords';
import { settingsStore } from '@/lib/server/settings';
import { edgeCaseBatches } from '@/sandbox/data/edge-cases';
import { organisationOf } from '@/sandbox/organisations';
import { cellsUnderAnySplit, HOSTILE_TEXTS, readCsv, runsAsFormula, shownCsvText } from '../helpers/csv';
import { control, tokenFor, walkV2 } from '../helpers/sandbox';
import { readXlsx } from '../helpers/xlsx';

/**
 * The export route's parallel walk (OrderedLoad) against a sequential cursor walk of the same sandbox: the
 * same rows once each, in creation order, read back with readers that are not the writers (csv-parse,
 * read-excel-file); and its failures: a failure after the first page aborts the download, a cancelled
 * download stops asking the service.
 */
/** An organisation whose batches carry text made to break a CSV, or to run in a spreadsheet split on either separator. */
const HOSTILE = { clientId: 'hostile-csv-client', clientSecret: 'hostile-csv-secret' };
/** Someone of that organisation, made in the app's database as an administrator would (it is no sandbox organisation the tests provision). */
const HOSTILE_PERSON = { email: 'viewer@hostile-csv.example', password: 'hostile-csv-viewer-password' };
async function addHostileOrganisation() {
  const store = settingsStore();
  const organisation = await store.organisations.create({ name: 'Hostile CSV', ...HOSTILE });
  const person = await store.people.create({
    email: HOSTILE_PERSON.email,
    name: 'Hostile viewer',
    passwordHash: await hashPassword(HOSTILE_PERSON.password),
  });
  await store.people.setMembership(organisation.id, person.id, 'viewer');
}
const hostileBatches = HOSTILE_TEXTS.map((text, i) => ({
  ...edgeCaseBatches('http://127.0.0.1/reports/edge-client')[0]!,
  batch_id: text,
  batch_name: text,
  batch_creation_date: `2026-05-01T10:00:${String(i).padStart(2, '0')}Z`,
  crop_type: text,
  scanned_by_email: text,
  analysis_link: text,
  comment: text,
}));

const sandbox = bffForFile(
  { SIGNIN_ATTEMPTS_PER_IP: '100000', BATCH_API_CONCURRENCY: '8' },
  { batches: 3000, pageSize: 50 },
  [organisationOf({ id: 'hostile-csv', name: 'Hostile CSV', ...HOSTILE }, hostileBatches)],
);
const stats = async () =>
  (await control(sandbox(), 'GET', '/_sandbox/stats')) as { batchRequests: number; faultsServed: number };

let cookie: string;
beforeEach(async () => {
  const response = await session.POST(request('/api/session', { method: 'POST', json: DEMO }));
  cookie = sessionCookieOf(response)!;
});

type Walked = { batch_id: string; batch_name: string; analysis_link: string | null };

async function reference(range: Record<string, string> = {}) {
  return (await walkV2(sandbox(), await tokenFor(sandbox()), range)).batches as unknown as Walked[];
}

const exportOf = (query: Record<string, string>) =>
  exported.GET(request(`/api/batches/export?${new URLSearchParams(query)}`, { cookie }));

describe('the export in creation order, fetched in parallel', () => {
  it('CSV: the rows of a sequential walk, once each and in its order, for whole, closed, open-start and open-end ranges', async () => {
    const all = await reference();
    const at = (i: number) => (all[i] as unknown as { batch_creation_date: string }).batch_creation_date;
    for (const range of [
      {} as Record<string, string>,
      { start_date: at(111), end_date: at(2222) },
      { end_date: at(1800) },
      { start_date: at(900) },
    ]) {
      const want = await reference(range);
      const response = await exportOf(range);
      expect(response.status).toBe(200);
      const rows = readCsv(await response.text());
      expect(rows.slice(1).map((r) => r[0])).toEqual(want.map((b) => b.batch_id));
    }
  });

  it('xlsx: the same rows in the same order', async () => {
    const want = await reference();
    const response = await exportOf({ format: 'xlsx', columns: 'name,analysis' });
    expect(response.status).toBe(200);
    const { sheets, hyperlinks } = await readXlsx(Buffer.from(await response.arrayBuffer()));
    const rows = sheets[0]!.rows.slice(1);
    expect(rows.map((r) => [r[0] ?? null, r[1] ?? null])).toEqual(want.map((b) => [b.batch_name, b.analysis_link]));
    // The links' relationships are written after the sheet (lib/export/xlsx-streaming.ts): each still its row's.
    const links = want.flatMap((b, i) => (b.analysis_link ? [[`B${i + 2}`, b.analysis_link]] : []));
    expect(links.length).toBeGreaterThan(2000);
    expect([...hyperlinks.entries()]).toEqual(links);
  });

  it('429s and 503s mid-way are retried by the client: the same CSV', async () => {
    const want = await reference();
    await control(sandbox(), 'POST', '/_sandbox/faults', {
      rateLimitConcurrent: 4,
      rateLimitRetryAfterS: 0,
      fail503Every: 25,
      retryAfterS: 0,
    });
    const rows = readCsv(await (await exportOf({})).text());
    expect(rows.slice(1).map((r) => r[0])).toEqual(want.map((b) => b.batch_id));
    expect((await stats()).faultsServed).toBeGreaterThan(0);
  }, 60_000);

  it.each(['csv', 'xlsx'])(
    '%s: a failure after the first page aborts the download (never a short file that ends well)',
    async (format) => {
      await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 20 });
      const response = await exportOf({ format });
      expect(response.status).toBe(200);
      await control(sandbox(), 'POST', '/_sandbox/inject', { kind: '500', count: 1 });
      await expect(response.arrayBuffer()).rejects.toThrow();
    },
  );

  it('a cancelled download stops asking the service', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 20 });
    const response = await exportOf({});
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 100));
    const after = (await stats()).batchRequests;
    await new Promise((r) => setTimeout(r, 200));
    expect((await stats()).batchRequests).toBe(after);
    expect(after).toBeLessThan(3000 / 50);
  });
});

describe("the CSV of the service's fields, read by a spreadsheet splitting on `,`, `;` or tab", () => {
  it('reads back every field with `,`, and no cell split out on `;` or tab (or `,`, quotes ignored) runs a formula', async () => {
    await addHostileOrganisation();
    const signedIn = await session.POST(request('/api/session', { method: 'POST', json: HOSTILE_PERSON }));
    const response = await exported.GET(request('/api/batches/export', { cookie: sessionCookieOf(signedIn)! }));
    expect(response.status).toBe(200);
    const text = await response.text();
    const rows = readCsv(text, ',');
    expect(rows[0]).toEqual([...BATCH_FIELDS]);
    const texts = new Set(['batch_id', 'batch_name', 'crop_type', 'scanned_by_email', 'analysis_link', 'comment']);
    // In creation order, which is the list's; the id first in its row (even -2.50 is text there).
    expect(rows.slice(1)).toEqual(
      hostileBatches.map((b) =>
        BATCH_FIELDS.map((f, i) => (texts.has(f) ? shownCsvText(b[f] as string, i === 0) : String(b[f]))),
      ),
    );
    expect(rows[1]![1]).toBe("Tray;'=1+1");
    for (const split of [',', ';', '\t'] as const) {
      expect(cellsUnderAnySplit(text, split).filter(runsAsFormula), `split on ${JSON.stringify(split)}`).toEqual([]);
    }
  });
});
