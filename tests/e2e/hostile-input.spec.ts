import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { mutatedSeal } from '../helpers/broken-seals';
import { api, APP_URL, DEMO, sandbox, signIn, signInRedirectOf } from './support';

let cookie: string;
test.beforeAll(async () => {
  await sandbox('POST', '/_sandbox/reset');
  cookie = await signIn();
});

/** Values a query parameter could carry: dates right and wrong, junk, unicode, very long text. */
const value = fc.oneof(
  fc.constantFrom(
    '',
    '2025-01-01T00:00:00Z',
    '2025-06-30T23:59:59.999999+00:00',
    '2025-01-01',
    '2025-01-01T00:00:00+02:00',
    '2025-02-30T00:00:00Z',
    '~',
    ',',
    '~,~',
    'null',
    '[]',
    '%',
    '\u0000',
  ),
  fc
    .date({ min: new Date('1990-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ minLength: 3000, maxLength: 6000 }),
  fc
    .tuple(fc.date({ noInvalidDate: true }), fc.date({ noInvalidDate: true }))
    .map(([a, b]) => `${a.toISOString()}~${b.toISOString()}`),
);
const key = fc.oneof(
  fc.constantFrom('start_date', 'end_date', 'cursor', 'parts', 'limit', 'START_DATE'),
  fc.string({ minLength: 1, maxLength: 12 }),
);
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
        const response = await fetch(`${APP_URL}${path}?${params}`, {
          headers: { cookie },
          signal: AbortSignal.timeout(10_000),
        });
        // Node's HTTP server refuses a request head over 16 kB itself (431, empty body), before the app runs.
        if (response.status === 431) return expect(params.toString().length).toBeGreaterThan(8_000);
        await expectClean(response, what);
      }),
      { numRuns: 60 },
    );
  });
}

test('sign-in: any body (empty, not JSON, wrong types, huge strings) gets a 4xx with detail, never a 5xx', async () => {
  const json = fc
    .oneof(
      fc.record({ email: fc.anything(), password: fc.anything() }, { requiredKeys: [] }),
      fc.anything(),
      fc.record({ email: fc.string({ maxLength: 300 }), password: fc.string({ maxLength: 1100 }) }),
    )
    .map((v) => JSON.stringify(v) ?? '');
  const raw = fc.oneof(json, fc.string({ maxLength: 200 }), fc.constantFrom('', '{', 'null', '[]', '{"email":'));
  await fc.assert(
    fc.asyncProperty(
      raw,
      fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8'),
      async (body, type) => {
        const response = await fetch(`${APP_URL}/api/session`, {
          method: 'POST',
          headers: { 'content-type': type, origin: APP_URL },
          body,
        });
        expect(response.status, body.slice(0, 100)).not.toBe(204);
        await expectClean(response, body.slice(0, 100));
      },
    ),
    { numRuns: 150 },
  );
  for (const size of [9 * 1024, 1024 * 1024]) {
    const big = JSON.stringify({ email: 'x'.repeat(size), password: 'y' });
    const response = await fetch(`${APP_URL}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: APP_URL },
      body: big,
    });
    expect(response.status).toBe(413);
    expect((await response.json()).detail).toMatch(/^body: /);
  }
});

test('any session cookie value, or a real seal changed, cut or added to: "not signed in" on the API, sign-in for the page, never a 5xx', async () => {
  const seal = cookie.split('=')[1]!;
  // Printable text (what a browser would keep), strings cut like a seal, and mutations of the real seal.
  const value = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc
      .tuple(fc.array(fc.string({ maxLength: 12 }), { minLength: 8, maxLength: 8 }), fc.string({ maxLength: 4 }))
      .map(([parts, v]) => `${parts.join('*')}~${v}`),
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

test('every route of the API refuses a parameter it does not know, `__proto__` included (Next.js drops that one from the URL it hands a route), never answering as if it were not there', async () => {
  const view = '/api/settings/views/0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f';
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/batches'],
    ['GET', '/api/batches/stream'],
    ['GET', '/api/batches/export'],
    ['GET', '/api/health'],
    ['GET', '/api/session'],
    ['GET', '/api/session/cache-key'],
    ['GET', '/api/settings/targets'],
    ['GET', '/api/settings/views'],
    ['PUT', '/api/settings/targets', { targets: { general: { germination: 90, usable: null, cv: null } } }],
    ['POST', '/api/settings/views', { name: 'never saved', query: '' }],
    ['PATCH', view, { isDefault: true }],
    ['DELETE', view],
  ];
  for (const [method, path, json] of routes) {
    for (const [query, field] of [
      ['__proto__=1', '__proto__'],
      ['callback=', 'callback'],
      ['_rsc=1', '_rsc'],
    ]) {
      const response = await api(`${path}?${query}`, { method, cookie, json, headers: { origin: APP_URL } });
      expect([response.status, (await response.json()).detail], `${method} ${path}?${query}`).toEqual([
        422,
        `${field}: unknown parameter`,
      ]);
    }
  }
  const signedIn = await api('/api/session?__proto__=1', { method: 'POST', json: DEMO, headers: { origin: APP_URL } });
  expect([signedIn.status, (await signedIn.json()).detail]).toEqual([422, '__proto__: unknown parameter']);
});

test('text the settings database cannot keep (NUL, a lone surrogate) or a name should not hold (a tab) is 422 naming the field, never a 500', async () => {
  const general = { germination: 90, usable: null, cv: null };
  const cases: [string, string, unknown, string][] = [
    [
      'PUT',
      '/api/settings/targets',
      { targets: { general, crops: { 'Tom\u0000ato': general } } },
      'targets.crops.Tom\\u0000ato: a crop name must not contain the NUL character (U+0000)',
    ],
    [
      'PUT',
      '/api/settings/targets',
      { targets: { general, crops: { '\ud800': general } } },
      'targets.crops.\\ud800: a crop name must be valid Unicode: it holds a lone surrogate (U+D800)',
    ],
    [
      'POST',
      '/api/settings/views',
      { name: 'May\u0000', query: '' },
      'name: must not contain the NUL character (U+0000)',
    ],
    [
      'POST',
      '/api/settings/views',
      { name: 'May \udfff', query: '' },
      'name: must be valid Unicode: it holds a lone surrogate (U+DFFF)',
    ],
    [
      'POST',
      '/api/settings/views',
      { name: 'May\tJune', query: '' },
      'name: must not contain control characters such as tabs or line breaks (it holds U+0009)',
    ],
    [
      'POST',
      '/api/settings/views',
      { name: 'May', query: 'q=\u0000' },
      'query: must not contain the NUL character (U+0000)',
    ],
  ];
  for (const [method, path, json, detail] of cases) {
    const response = await api(path, { method, cookie, json, headers: { origin: APP_URL } });
    expect([response.status, (await response.json()).detail], JSON.stringify(json)).toEqual([422, detail]);
  }
});
