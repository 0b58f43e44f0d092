import { expect, test } from '@playwright/test';
import { startApp, type AppInstance } from './app-instance';
import { sandbox } from './support';

const PORT = 3532;
const URL_ = `http://127.0.0.1:${PORT}`;
const DEMO = { clientId: 'demo-client', clientSecret: 'demo-secret' };

let app: AppInstance;
const output: string[] = [];

test.beforeAll(async () => {
  app = await startApp(PORT, { SESSION_SECRET: 'health-logs-session-secret-0123456789ab' }, output);
});
test.afterAll(() => app.stop());
test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

async function signIn(): Promise<string> {
  const response = await fetch(`${URL_}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URL_ },
    body: JSON.stringify(DEMO),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

test('health: no session needed, nothing secret, and whether the service answered the last call', async () => {
  const fresh = await fetch(`${URL_}/api/health`);
  expect(fresh.status).toBe(200);
  expect(fresh.headers.get('cache-control')).toBe('no-store');
  const cookie = await signIn();
  const up = await (await fetch(`${URL_}/api/health`)).json();
  expect(up).toMatchObject({ status: 'ok', upstream: { answered: true, lastStatus: 200 } });
  expect(Date.parse(up.upstream.lastCallAt)).toBeGreaterThan(Date.now() - 60_000);

  await sandbox('POST', '/_sandbox/faults', { outage: true, retryAfterS: 0 });
  expect((await fetch(`${URL_}/api/batches`, { headers: { cookie } })).status).toBe(503);
  const down = await fetch(`${URL_}/api/health`);
  expect(down.status).toBe(200);
  const body = await down.text();
  expect(JSON.parse(body)).toMatchObject({ status: 'ok', upstream: { answered: false, lastStatus: 503 } });
  for (const secret of ['demo-secret', 'demo-client', 'Bearer', 'tsb_session', '/v2/']) expect(body).not.toContain(secret);
});

test('one JSON line per request: method, path, status, duration, upstream calls; no secret, cookie or query', async () => {
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
  expect(requests[0]!.upstreamCalls).toBe(1); // sign-in asks the auth endpoint
  expect(requests[2]!.upstreamCalls).toBe(0); // a bad date never reaches the service
  const streamed = requests[3]!;
  expect(streamed.streamed).toBe(true);
  expect(streamed.upstreamCalls as number).toBeGreaterThan(5);
  const all = output.join('\n');
  for (const secret of ['demo-secret', cookie.split('=')[1]!, 'Bearer', 'start_date', 'yesterday']) expect(all).not.toContain(secret);
});
