import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { mutatedSeal } from '../helpers/broken-seals';
import { APP_URL, sandbox, signIn, signInRedirectOf } from './support';

let cookie: string;
test.beforeAll(async () => {
  await sandbox('POST', '/_sandbox/reset');
  cookie = await signIn();
});

/** Values a query parameter could carry: dates right and wrong, junk, unicode, very long text. */
const value = fc.oneof(
  fc.constantFrom('', '2025-01-01T00:00:00Z', '2025-06-30T23:59:59.999999+00:00', '2025-01-01', '2025-01-01T00:00:00+02:00', '2025-02-30T00:00:00Z', '~', ',', '~,~', 'null', '[]', '%', '\u0000'),
  fc.date({ min: new Date('1990-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ minLength: 3000, maxLength: 6000 }),
  fc.tuple(fc.date({ noInvalidDate: true }), fc.date({ noInvalidDate: true })).map(([a, b]) => `${a.toISOString()}~${b.toISOString()}`),
);
const key = fc.oneof(fc.constantFrom('start_date', 'end_date', 'cursor', 'parts', 'limit', 'START_DATE'), fc.string({ minLength: 1, maxLength: 12 }));
const query = fc.array(fc.tuple(key, value), { maxLength: 4 });

async function expectClean(response: Response, what: string) {
  expect(response.status, what).toBeLessThan(500);
  if (response.status >= 400) {
    const body = await response.json();
    expect(typeof body.detail, what).toBe('string');
    expect(body.detail.length, what).toBeGreaterThan(0);
  } else {
    await response.body?.cancel();
  }
}

for (const path of ['/api/batches', '/api/batches/stream', '/api/batches/export']) {
  test(`${path}: any query string gets an answer or a 4xx naming the problem, never a 5xx`, async () => {
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const params = new URLSearchParams();
        for (const [k, v] of pairs) params.append(k, v);
        const what = `${path}?${params.toString().slice(0, 200)}`;
        const response = await fetch(`${APP_URL}${path}?${params}`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
        // Node's HTTP server refuses a request head over 16 kB itself (431, empty body), before the app runs.
        if (response.status === 431) return expect(params.toString().length).toBeGreaterThan(8_000);
        await expectClean(response, what);
      }),
      { numRuns: 60 },
    );
  });
}

test('sign-in: any body (empty, not JSON, wrong types, huge strings) gets a 4xx with detail, never a 5xx', async () => {
  const json = fc.oneof(
    fc.record({ email: fc.anything(), password: fc.anything() }, { requiredKeys: [] }),
    fc.anything(),
    fc.record({ email: fc.string({ maxLength: 300 }), password: fc.string({ maxLength: 1100 }) }),
  ).map((v) => JSON.stringify(v) ?? '');
  const raw = fc.oneof(json, fc.string({ maxLength: 200 }), fc.constantFrom('', '{', 'null', '[]', '{"email":'));
  await fc.assert(
    fc.asyncProperty(raw, fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8'), async (body, type) => {
      const response = await fetch(`${APP_URL}/api/session`, { method: 'POST', headers: { 'content-type': type, origin: APP_URL }, body });
      expect(response.status, body.slice(0, 100)).not.toBe(204);
      await expectClean(response, body.slice(0, 100));
    }),
    { numRuns: 150 },
  );
  for (const size of [9 * 1024, 1024 * 1024]) {
    const big = JSON.stringify({ email: 'x'.repeat(size), password: 'y' });
    const response = await fetch(`${APP_URL}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: APP_URL }, body: big });
    expect(response.status).toBe(413);
    expect((await response.json()).detail).toMatch(/^body: /);
  }
});

test('any session cookie value, or a real seal changed, cut or added to: "not signed in" on the API, sign-in for the page, never a 5xx', async () => {
  const seal = cookie.split('=')[1]!;
  // Printable text (what a browser would keep), strings cut like a seal, and mutations of the real seal.
  const value = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.tuple(fc.array(fc.string({ maxLength: 12 }), { minLength: 8, maxLength: 8 }), fc.string({ maxLength: 4 })).map(([parts, v]) => `${parts.join('*')}~${v}`),
    mutatedSeal(seal),
  );
  await fc.assert(
    fc.asyncProperty(value, async (v) => {
      const headers = { cookie: `tsb_session=${v}` };
      const me = await fetch(`${APP_URL}/api/session`, { headers });
      expect([me.status, (await me.json()).detail], v).toEqual([401, 'session: not signed in']);
      const page = await fetch(`${APP_URL}/batches`, { headers, redirect: 'manual' });
      expect(await signInRedirectOf(page), v).toBe('/sign-in?next=%2Fbatches');
      const out = await fetch(`${APP_URL}/api/session`, { method: 'DELETE', headers: { ...headers, origin: APP_URL } });
      expect(out.status, v).toBe(204);
    }),
    { numRuns: 150 },
  );
  expect((await fetch(`${APP_URL}/api/session`, { headers: { cookie } })).status).toBe(200);
});

