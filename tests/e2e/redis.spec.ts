import type { ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { expect, test } from '@playwright/test';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { spawnRedisServer } from '../helpers/redis-server';
import { startApp, type AppInstance } from './app-instance';
import { DEMO, DEMO_ADMIN, sandbox, type Credentials } from './support';

// Two app instances as a deployment runs them: one PostgreSQL (the people, their sessions, the settings) and
// one Redis (the organisations' tokens, the sign-in counters) between them.
const REDIS_PORT = 6391;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}/0`;
const A = 3541;
const B = 3542;
const url = (port: number) => `http://127.0.0.1:${port}`;

let redis: ChildProcess;
let postgres: PostgresServer;
let env: Record<string, string>;
const apps: Record<number, AppInstance> = {};

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

/** A real redis-server (Debian's package), on loopback, in memory only: a restart forgets everything it held. */
async function startRedis() {
  redis = spawnRedisServer(REDIS_PORT);
  const deadline = Date.now() + 10_000;
  while (!(await ping())) {
    if (Date.now() > deadline) throw new Error('redis-server did not start (apt-get install -y redis-server)');
    await new Promise((r) => setTimeout(r, 100));
  }
}
async function stopRedis() {
  if (redis.exitCode !== null) return;
  const exited = new Promise((r) => redis.once('exit', r));
  redis.kill('SIGTERM');
  await exited;
}

test.beforeAll(async () => {
  await startRedis();
  postgres = await startPostgres();
  env = { REDIS_URL, DATABASE_URL: await postgres.createDatabase('dashboard') };
  // One after the other: the first migrates and provisions, the second finds it done.
  apps[A] = await startApp(A, env);
  apps[B] = await startApp(B, env);
});
test.afterAll(async () => {
  await Promise.all(Object.values(apps).map((a) => a.stop()));
  await stopRedis();
  await postgres?.stop();
});
test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

async function signInOn(port: number, person: Credentials = DEMO): Promise<string> {
  const response = await fetch(`${url(port)}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url(port) },
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}
const whoAmI = (port: number, cookie: string) => fetch(`${url(port)}/api/session`, { headers: { cookie } });
const write = (port: number, path: string, method: string, cookie: string, body?: unknown) =>
  fetch(`${url(port)}${path}`, {
    method,
    headers: { cookie, origin: url(port), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A new person of the demo organisation, invited by its administrator on A and signed in through the invite on B. */
async function newColleague(role: 'viewer' | 'editor') {
  const admin = await signInOn(A, DEMO_ADMIN);
  const email = `colleague-${Date.now()}-${Math.round(Math.random() * 1e6)}@demo.example`;
  const invited = await write(A, '/api/admin/people', 'POST', admin, { email, role });
  expect(invited.status).toBe(201);
  const { id, inviteUrl } = (await invited.json()) as { id: string; inviteUrl: string };
  const token = inviteUrl.split('/invite/')[1]!;
  const used = await fetch(`${url(B)}/api/links/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url(B) },
    body: JSON.stringify({ name: 'Colleague', password: 'a long enough password' }),
  });
  expect(used.status).toBe(204);
  return { id, admin, cookie: used.headers.get('set-cookie')!.split(';')[0]! };
}

test('two instances agree: a session signed out on one is refused by the other', async () => {
  const cookie = await signInOn(A);
  expect((await whoAmI(B, cookie)).status).toBe(200);
  expect((await fetch(`${url(A)}/api/session`, { method: 'DELETE', headers: { cookie, origin: url(A) } })).status).toBe(
    204,
  );
  const refused = await whoAmI(B, cookie);
  expect([refused.status, (await refused.json()).detail]).toEqual([401, 'session: signed out; sign in again']);
});

test('disabling a person on instance A refuses their cookie on instance B at once; a role change counts from their next request', async () => {
  const { id, admin, cookie } = await newColleague('editor');
  expect((await whoAmI(B, cookie)).status).toBe(200);
  expect(
    (
      await write(B, '/api/settings/targets', 'PUT', cookie, {
        targets: { general: { germination: 90, usable: null, cv: null }, crops: {} },
      })
    ).status,
  ).toBe(200);
  expect((await write(A, `/api/admin/people/${id}`, 'PATCH', admin, { role: 'viewer' })).status).toBe(200);
  const demoted = await write(B, '/api/settings/targets', 'PUT', cookie, {
    targets: { general: { germination: 90, usable: null, cv: null }, crops: {} },
  });
  expect([demoted.status, (await demoted.json()).detail]).toEqual([
    403,
    'role: saving the targets needs the editor role; you are a viewer',
  ]);

  expect((await write(A, `/api/admin/people/${id}`, 'PATCH', admin, { disabled: true })).status).toBe(200);
  for (const port of [B, A]) {
    const refused = await whoAmI(port, cookie);
    expect([refused.status, (await refused.json()).detail]).toEqual([
      401,
      'session: this account is disabled; ask an administrator of your organisation',
    ]);
    expect((await fetch(`${url(port)}/api/batches`, { headers: { cookie } })).status).toBe(401);
  }
  // Enabled again, the old session stays signed out: disabling signed every session of theirs out.
  expect((await write(A, `/api/admin/people/${id}`, 'PATCH', admin, { disabled: false })).status).toBe(200);
  expect((await whoAmI(B, cookie)).status).toBe(401);
});

test('an administrator signs out all of a person’s sessions, on every instance', async () => {
  const { id, admin, cookie } = await newColleague('viewer');
  const other = await signInOn(A, {
    email: (await (await whoAmI(B, cookie)).json()).user.email,
    password: 'a long enough password',
  });
  expect((await write(B, `/api/admin/people/${id}/sessions`, 'DELETE', admin)).status).toBe(204);
  for (const c of [cookie, other]) for (const port of [A, B]) expect((await whoAmI(port, c)).status).toBe(401);
});

test('a token fetched by one instance serves the other', async () => {
  const cookie = await signInOn(A);
  expect((await fetch(`${url(A)}/api/batches?start_date=2026-01-01T00:00:00Z`, { headers: { cookie } })).status).toBe(
    200,
  );
  const before = (await sandbox('GET', '/_sandbox/stats')).authRequests;
  expect((await fetch(`${url(B)}/api/batches?start_date=2026-01-01T00:00:00Z`, { headers: { cookie } })).status).toBe(
    200,
  );
  expect((await fetch(`${url(A)}/api/batches?start_date=2026-01-01T00:00:00Z`, { headers: { cookie } })).status).toBe(
    200,
  );
  expect((await sandbox('GET', '/_sandbox/stats')).authRequests).toBe(before);
});

test('revocations outlive a restart of Redis and of the app: a signed-out cookie never works again, a live one goes on', async () => {
  const live = await signInOn(A);
  const signedOut = await signInOn(A);
  expect(
    (await fetch(`${url(B)}/api/session`, { method: 'DELETE', headers: { cookie: signedOut, origin: url(B) } })).status,
  ).toBe(204);

  // Redis down: sessions do not depend on it.
  await stopRedis();
  expect((await whoAmI(B, live)).status).toBe(200);
  expect((await whoAmI(B, signedOut)).status).toBe(401);
  // Redis back, empty (no persistence): nothing it forgot brings a session back.
  await startRedis();
  expect((await whoAmI(A, signedOut)).status).toBe(401);
  expect((await whoAmI(A, live)).status).toBe(200);

  // The app restarted (same SESSION_SECRET, same database).
  await apps[B]!.stop();
  apps[B] = await startApp(B, env);
  expect((await whoAmI(B, signedOut)).status).toBe(401);
  expect((await whoAmI(B, live)).status).toBe(200);
});
