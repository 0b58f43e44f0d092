import type { ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { expect, test } from '@playwright/test';
import { startApp, type AppInstance } from './app-instance';
import { spawnRedisServer } from '../helpers/redis-server';
import { sandbox } from './support';

const REDIS_PORT = 6391;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}/0`;
const A = 3541;
const B = 3542;
const url = (port: number) => `http://127.0.0.1:${port}`;

let redis: ChildProcess;
let apps: AppInstance[] = [];

function ping(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(REDIS_PORT, '127.0.0.1');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

test.beforeAll(async () => {
  // A real redis-server (Debian's package), on loopback, in memory only, stopped after the file.
  redis = spawnRedisServer(REDIS_PORT);
  const deadline = Date.now() + 10_000;
  while (!(await ping())) {
    if (Date.now() > deadline) throw new Error('redis-server did not start (apt-get install -y redis-server)');
    await new Promise((r) => setTimeout(r, 100));
  }
  apps = await Promise.all([startApp(A, { REDIS_URL }), startApp(B, { REDIS_URL })]);
});
test.afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop()));
  redis?.kill('SIGTERM');
});
test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

async function signInOn(port: number): Promise<string> {
  const response = await fetch(`${url(port)}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url(port) },
    body: JSON.stringify({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

test('two instances agree: a session signed out on one is refused by the other', async () => {
  const cookie = await signInOn(A);
  expect((await fetch(`${url(B)}/api/session`, { headers: { cookie } })).status).toBe(200);
  expect((await fetch(`${url(A)}/api/session`, { method: 'DELETE', headers: { cookie, origin: url(A) } })).status).toBe(204);
  const refused = await fetch(`${url(B)}/api/session`, { headers: { cookie } });
  expect(refused.status).toBe(401);
  expect((await refused.json()).detail).toMatch(/^session: /);
});

test('a token fetched by one instance serves the other', async () => {
  const cookie = await signInOn(A); // sign-in asks the auth endpoint and keeps the token in Redis
  const before = (await sandbox('GET', '/_sandbox/stats')).authRequests;
  expect((await fetch(`${url(B)}/api/batches?start_date=2026-01-01T00:00:00Z`, { headers: { cookie } })).status).toBe(200);
  expect((await fetch(`${url(A)}/api/batches?start_date=2026-01-01T00:00:00Z`, { headers: { cookie } })).status).toBe(200);
  expect((await sandbox('GET', '/_sandbox/stats')).authRequests).toBe(before);
});

test('without Redis, a session check is a 503 that says so, never a 500 or a signed-out session let through', async () => {
  const cookie = await signInOn(A);
  redis.kill('SIGTERM');
  await new Promise((r) => redis.once('exit', r));
  const response = await fetch(`${url(B)}/api/session`, { headers: { cookie } });
  expect(response.status).toBe(503);
  expect((await response.json()).detail).toMatch(/^session: the session store is unavailable/);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
});
