import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { startApp, type AppInstance } from './app-instance';
import { DEMO, DEMO_ADMIN, sandbox } from './support';

const PORT = 3532;
const URL_ = `http://127.0.0.1:${PORT}`;

let app: AppInstance;
const output: string[] = [];
/** What the instance printed while starting (provisioning the organisations, their secrets among them). */
const startup: string[] = [];

test.beforeAll(async () => {
  app = await startApp(PORT, { SESSION_SECRET: 'health-logs-session-secret-0123456789ab' }, output);
  await expect.poll(() => output.some((l) => l.includes('provisioning: done'))).toBe(true);
  startup.push(...output);
});
test.afterAll(() => app.stop());
test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

async function signIn(person = DEMO): Promise<string> {
  const response = await fetch(`${URL_}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URL_ },
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

const health = async () => {
  const response = await fetch(`${URL_}/api/health`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.text();
};

// The answer used to be the app's last upstream call: its time, status and duration. That told anyone, signed
// in or not, when someone last signed in and whether it worked (a 401 was a refused secret). It now says only
// whether the service answered lately, the same for a refused sign-in as for a good one.
test("health: no session needed, and nothing of anyone's activity: up, and whether the service answered recently", async () => {
  // A fresh instance has not asked the service anything (its start-up probe is GET /api/session, no session).
  expect(JSON.parse(await health())).toEqual({ status: 'ok', service: 'ok' }); // nothing asked yet reads as ok too

  const refused = await fetch(`${URL_}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URL_ },
    body: JSON.stringify({ email: DEMO.email, password: 'not the password' }),
  });
  expect(refused.status).toBe(401);
  const afterRefused = await health();
  expect(JSON.parse(afterRefused)).toEqual({ status: 'ok', service: 'ok' });
  const cookie = await signIn();
  expect(await health()).toBe(afterRefused);

  await sandbox('POST', '/_sandbox/faults', { outage: true, retryAfterS: 0 });
  expect((await fetch(`${URL_}/api/batches`, { headers: { cookie } })).status).toBe(503);
  const down = await health();
  expect(JSON.parse(down)).toEqual({ status: 'ok', service: 'degraded' });
  for (const secret of ['demo-secret', 'demo-client', 'Bearer', 'tsb_session', '/v2/'])
    expect(down).not.toContain(secret);

  await sandbox('POST', '/_sandbox/reset');
  expect((await fetch(`${URL_}/api/batches`, { headers: { cookie } })).status).toBe(200);
  expect(JSON.parse(await health())).toEqual({ status: 'ok', service: 'ok' });
});

test('one JSON line per request: method, path, status, duration, upstream calls, person and organisation ids; no secret, e-mail, cookie or query', async () => {
  output.length = 0;
  const cookie = await signIn();
  await fetch(`${URL_}/api/batches?start_date=2025-01-01T00:00:00Z`, { headers: { cookie } });
  await fetch(`${URL_}/api/batches?start_date=yesterday`, { headers: { cookie } });
  const stream = await fetch(`${URL_}/api/batches/stream`, { headers: { cookie } });
  await stream.text();
  await expect.poll(() => output.filter((l) => l.includes('/api/batches/stream')).length).toBe(1);

  const lines = output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const requests = lines.filter((l) => l.msg === 'request');
  expect(requests.map((l) => [l.method, l.path, l.status])).toEqual([
    ['POST', '/api/session', 204],
    ['GET', '/api/batches', 200],
    ['GET', '/api/batches', 422],
    ['GET', '/api/batches/stream', 200],
  ]);
  for (const line of requests) {
    expect(typeof line.durationMs).toBe('number');
    expect(typeof line.time).toBe('string');
    expect(line.level).toBe(line.status === 422 ? 'warn' : 'info');
  }
  expect(requests[0]!.upstreamCalls).toBe(0); // a sign-in is the person's password, checked here
  expect(requests[1]!.upstreamCalls).toBe(1); // the first batch request fetches the organisation's token
  expect(requests[2]!.upstreamCalls).toBe(0); // a bad date never reaches the service
  // Who and for which organisation, by id only.
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  for (const line of requests.slice(1))
    expect([line.person_id, line.organisation_id]).toEqual([expect.stringMatching(uuid), expect.stringMatching(uuid)]);
  expect(requests[0]!.person_id).toBeUndefined();
  const streamed = requests[3]!;
  expect(streamed.streamed).toBe(true);
  expect(streamed.upstreamCalls as number).toBeGreaterThan(5);
  const all = output.join('\n');
  for (const secret of [
    'demo-secret',
    DEMO.password,
    DEMO.email,
    cookie.split('=')[1]!,
    'Bearer',
    'start_date',
    'yesterday',
  ])
    expect(all).not.toContain(secret);
});

/** The request lines the instance has printed since `output` was emptied, for one path or all. */
const requestLines = (path?: string) =>
  output
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'request' && (path === undefined || l.path === path));

test('HEAD on the stream and the export: the checks of GET and its headers, no upstream work, one log line each', async () => {
  output.length = 0;
  const cookie = await signIn();
  const before = await sandbox('GET', '/_sandbox/stats');
  // A request's line is written as its last byte is sent: the sign-in's may follow its answer by a moment.
  await expect.poll(() => requestLines('/api/session').length).toBe(1);
  output.length = 0;
  const head = (path: string, withCookie = true) =>
    fetch(`${URL_}${path}`, { method: 'HEAD', headers: withCookie ? { cookie } : {} });

  const stream = await head('/api/batches/stream');
  expect([
    stream.status,
    stream.headers.get('content-type'),
    stream.headers.get('cache-control'),
    stream.headers.get('x-accel-buffering'),
  ]).toEqual([200, 'text/x-ndjson; charset=utf-8', 'no-store', 'no']);
  expect(await stream.text()).toBe('');
  const csv = await head('/api/batches/export?start_date=2025-01-01T00:00:00Z');
  expect([
    csv.status,
    csv.headers.get('content-type'),
    csv.headers.get('content-disposition'),
    csv.headers.get('cache-control'),
  ]).toEqual([
    200,
    'text/csv; charset=utf-8',
    'attachment; filename="Greenfield-Seeds-demo-batches-from-2025-01-01-api-fields.csv"',
    'no-store',
  ]);
  expect((await head('/api/batches/stream?start_date=yesterday')).status).toBe(422);
  expect((await head('/api/batches/export', false)).status).toBe(401);

  // Not a token, not a page: the sandbox saw nothing.
  expect(await sandbox('GET', '/_sandbox/stats')).toEqual(before);
  await expect.poll(() => requestLines().length).toBe(4);
  await new Promise((r) => setTimeout(r, 300));
  expect(requestLines().map((l) => [l.method, l.path, l.status, l.upstreamCalls])).toEqual([
    ['HEAD', '/api/batches/stream', 200, 0],
    ['HEAD', '/api/batches/export', 200, 0],
    ['HEAD', '/api/batches/stream', 422, 0],
    ['HEAD', '/api/batches/export', 401, 0],
  ]);
});

test('a stream or an export the client drops is logged once, as aborted, before or after the answer began', async () => {
  const cookie = await signIn();
  for (const path of ['/api/batches/stream', '/api/batches/export']) {
    // Dropped after the first bytes: the answer was 200 and is cut short.
    await sandbox('POST', '/_sandbox/faults', { latencyMs: 100 });
    output.length = 0;
    const controller = new AbortController();
    const response = await fetch(`${URL_}${path}`, { headers: { cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    await response.body!.getReader().read();
    controller.abort();
    await expect.poll(() => requestLines(path).length, path).toBe(1);

    // Dropped while the first page is still on its way: nobody reads the answer.
    await sandbox('POST', '/_sandbox/faults', { latencyMs: 2000 });
    const early = fetch(`${URL_}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(300) });
    await expect(early).rejects.toThrow();
    await expect.poll(() => requestLines(path).length, path).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    const [late, before] = requestLines(path);
    expect(late, path).toMatchObject({ method: 'GET', status: 200, streamed: true, aborted: true });
    expect(before, path).toMatchObject({ method: 'GET', status: 499, aborted: true });
    expect(requestLines(path)).toHaveLength(2);
  }
});

test('every method is logged once: OPTIONS, a method the route does not serve, and TRACE, answered before Next', async () => {
  output.length = 0;
  // fetch refuses TRACE: a plain HTTP request, as any client can send it.
  const send = (method: string, path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${URL_}${path}`, { method }, (res) =>
        res.resume().on('end', () => resolve(res.statusCode!)),
      );
      req.on('error', reject).end();
    });
  expect(await send('OPTIONS', '/api/batches')).toBe(204);
  expect(await send('PUT', '/api/session')).toBe(405);
  expect(await send('TRACE', '/api/batches/stream')).toBe(405);
  expect(await send('TRACE', '/sign-in')).toBe(405);
  await expect.poll(() => requestLines().length).toBe(4);
  expect(requestLines().map((l) => [l.method, l.path, l.status, l.level])).toEqual([
    ['OPTIONS', '/api/batches', 204, 'info'],
    ['PUT', '/api/session', 405, 'warn'],
    ['TRACE', '/api/batches/stream', 405, 'warn'],
    ['TRACE', '/sign-in', 405, 'warn'],
  ]);
  expect(output.join('\n')).not.toMatch(/TypeError|unsupported/);
});

test('the organisation’s secret is in no line, from the start (provisioning) to an administrator replacing it, refused or saved', async () => {
  output.length = 0;
  const admin = await signIn(DEMO_ADMIN);
  const put = (clientSecret: string) =>
    fetch(`${URL_}/api/admin/connection`, {
      method: 'PUT',
      headers: { cookie: admin, origin: URL_, 'content-type': 'application/json' },
      body: JSON.stringify({ clientSecret }),
    });
  expect((await put('refused-by-the-service-0123')).status).toBe(422);
  expect(
    (await fetch(`${URL_}/api/admin/connection/test`, { method: 'POST', headers: { cookie: admin, origin: URL_ } }))
      .status,
  ).toBe(200);
  expect((await put('demo-secret')).status).toBe(200);
  await expect.poll(() => requestLines('/api/admin/connection').length).toBe(2);
  const all = [...startup, ...output].join('\n');
  for (const secret of ['demo-secret', 'refused-by-the-service-0123', DEMO_ADMIN.email, DEMO_ADMIN.password])
    expect(all).not.toContain(secret);
});
