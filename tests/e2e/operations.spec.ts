import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { SANDBOX_URL } from '../../playwright.config';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { PEOPLE, TEST_CREDENTIALS_KEY } from '../helpers/people';
import { spawnRedisServer } from '../helpers/redis-server';
import { SANDBOX_ORGANISATIONS } from '../../scripts/sandbox-people';
import { sandbox } from './support';

/** How the production server is run and operated: where it listens, what it tells, how it stops. */
const APP = 3551;
const HOSTED = 3552;
const METRICS = 3553;
const OTLP = 4551;
const REDIS = 6392;
const url = (port: number) => `http://127.0.0.1:${port}`;
const DEMO = PEOPLE.demo.editor;
/** The demo organisation's client ID and secret at the service: held by the server, never in a log line. */
const CONNECTION = SANDBOX_ORGANISATIONS.find((o) => o.slug === 'demo')!;
const SESSION_SECRET = 'operations-session-secret-0123456789abcd';
const METRICS_TOKEN = 'operations-metrics-token-0123456789';

type Instance = { child: ChildProcess; output: string[]; exited: Promise<number | null>; dir: string };

/**
 * The production server as a service runs it: `node .next/app-server.js` (or `npm start`), every line it prints
 * kept; the test's organisations and people provisioned, in an embedded database of its own unless `env` names one.
 */
async function start(
  port: number,
  env: Record<string, string>,
  command: string[] = [process.execPath, '.next/app-server.js'],
): Promise<Instance> {
  const dir = mkdtempSync(join(tmpdir(), 'tsb-operations-'));
  const child = spawn(command[0]!, command.slice(1), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATCH_API_BASE_URL: SANDBOX_URL,
      SESSION_SECRET,
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      PROVISIONING_FILE: process.env.E2E_PROVISIONING_FILE,
      SETTINGS_DATA_DIR: dir,
      SIGNIN_ATTEMPTS_PER_IP: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: `npm start` runs the server as a child, and both are stopped together.
    detached: true,
  });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop()!;
      output.push(...lines.filter((l) => l !== ''));
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // The session endpoint exists on every version of the app: what is waited for is the server, not a feature.
  await expect
    .poll(
      async () =>
        fetch(`${url(port)}/api/session`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(401);
  return { child, output, exited, dir };
}

/** Whether any process of the group led by `pid` is still running. */
function groupRuns(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

const stop = async ({ child, exited, dir }: Instance) => {
  if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
  await exited;
  // npm leaves at once; the server it started drains first and writes its database until it exits.
  await expect.poll(() => groupRuns(child.pid!), { timeout: 30_000 }).toBe(false);
  rmSync(dir, { recursive: true, force: true });
};

/** Whether a TCP connection to `host:port` is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function signIn(port: number, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${url(port)}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url(port), ...headers },
    body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

const ready = async (port: number) => {
  const response = await fetch(`${url(port)}/api/health/ready`);
  return {
    status: response.status,
    body: (await response.json()) as { status: string; checks: Record<string, string> },
  };
};

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test('HOST is honoured by `npm start` (loopback only), and listening beyond it behind trusted proxies is warned of', async () => {
  const loopback = await start(HOSTED, { HOST: '127.0.0.1' }, ['npm', 'start']);
  try {
    expect(await accepts('127.0.0.1', HOSTED)).toBe(true);
    // Linux routes all of 127/8 to the loopback interface: a server on every interface accepts 127.0.0.2.
    expect(await accepts('127.0.0.2', HOSTED)).toBe(false);
  } finally {
    await stop(loopback);
  }
  const everywhere = await start(HOSTED, { HOST: '0.0.0.0', TRUSTED_PROXY_HOPS: '1' });
  try {
    expect(await accepts('127.0.0.2', HOSTED)).toBe(true);
    const warning = everywhere.output
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.level === 'warn' && /TRUSTED_PROXY_HOPS/.test(String(l.msg)));
    expect(warning).toMatchObject({ host: '0.0.0.0', trustedProxyHops: 1 });
  } finally {
    await stop(everywhere);
  }
});

test.describe('readiness tells a load balancer the truth', () => {
  let postgres: PostgresServer;
  let redis: ChildProcess;
  let app: Instance;
  let database = '';
  const startRedis = async () => {
    redis = spawnRedisServer(REDIS);
    await expect.poll(() => accepts('127.0.0.1', REDIS)).toBe(true);
  };

  test.beforeAll(async () => {
    postgres = await startPostgres();
    database = await postgres.createDatabase('ready');
    await startRedis();
    app = await start(APP, { DATABASE_URL: database, REDIS_URL: `redis://127.0.0.1:${REDIS}/0` }, ['npm', 'start']);
  });
  test.afterAll(async () => {
    if (app) await stop(app);
    redis?.kill('SIGTERM');
    await postgres?.stop();
  });

  test('Redis or PostgreSQL down, a rollback, a re-created database: 503 naming what is wrong, and back without a restart', async () => {
    await expect
      .poll(async () => (await ready(APP)).body)
      .toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok', instance: 'serving', batchService: 'ok' } });
    const cookie = await signIn(APP);

    // Redis away: every signed-in call would be refused, so the instance is unready.
    redis.kill('SIGKILL');
    await expect.poll(async () => (await ready(APP)).body.checks.redis).toBe('unreachable');
    const down = await ready(APP);
    expect([down.status, down.body.status, down.body.checks.database]).toEqual([503, 'unready', 'ok']);
    expect(JSON.stringify(down.body)).not.toMatch(/127\.0\.0\.1|6392|redis:|ECONN/);
    // The old probe stays as it was.
    expect((await fetch(`${url(APP)}/api/health`)).status).toBe(200);
    await startRedis();
    await expect.poll(async () => (await ready(APP)).status, { timeout: 15_000 }).toBe(200);

    // A newer release migrated the database (this instance is the rollback): unready, 503s, one line naming it.
    const admin = new pg.Client(database);
    await admin.connect();
    await admin.query(`insert into kysely_migration (name, timestamp) values ('9999-newer-release', now()::text)`);
    await expect.poll(async () => (await ready(APP)).body.checks.database).toBe('unknown-migration');
    // Sessions live in that database too: a signed-in request is refused at its session.
    const targets = await fetch(`${url(APP)}/api/settings/targets`, { headers: { cookie } });
    expect([targets.status, ((await targets.json()) as { detail: string }).detail]).toEqual([
      503,
      'session: the session store is unavailable; try again shortly',
    ]);
    const named = app.output
      .filter((l) => l.includes('9999-newer-release'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(named).toEqual([expect.objectContaining({ level: 'error', unknownMigrations: ['9999-newer-release'] })]);
    await admin.query(`delete from kysely_migration where name = '9999-newer-release'`);
    await admin.end();
    await expect.poll(async () => (await ready(APP)).status).toBe(200);

    // Dropped and created again (a restore into a new database): migrated again, settings served, no restart.
    const root = new pg.Client(postgres.url());
    await root.connect();
    await root.query('drop database ready with (force)');
    await root.query('create database ready');
    await root.end();
    await expect.poll(async () => (await ready(APP)).status).toBe(200);
    // The session lived in the database that was replaced: signed out, said so, no 500.
    const after = await fetch(`${url(APP)}/api/settings/targets`, { headers: { cookie } });
    expect([after.status, ((await after.json()) as { detail: string }).detail]).toEqual([
      401,
      'session: not signed in',
    ]);

    // PostgreSQL away.
    await postgres.stop();
    await expect.poll(async () => (await ready(APP)).body.checks.database).toMatch(/^(unreachable|timeout)$/);
    expect((await ready(APP)).status).toBe(503);
    expect(app.output.filter((l) => /"msg":"(un)?ready"/.test(l)).length).toBeGreaterThanOrEqual(4);
  });
});

test.describe('one instance’s run, start to stop', () => {
  let app: Instance;
  let otlp: Server;
  const exported: unknown[] = [];

  test.beforeAll(async () => {
    // An OpenTelemetry collector's OTLP/HTTP receiver, as far as this test needs one.
    otlp = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') exported.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => otlp.listen(OTLP, '127.0.0.1', resolve));
    app = await start(APP, {
      METRICS_PORT: String(METRICS),
      METRICS_TOKEN,
      SHUTDOWN_GRACE_S: '2',
      OTEL_EXPORTER_OTLP_ENDPOINT: url(OTLP),
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // Many requests waiting on one range load (what used to warn of a listener leak).
      BATCH_API_CONCURRENCY: '2',
      BATCH_API_MAX_CONCURRENCY: '32',
    });
  });
  test.afterAll(async () => {
    if (app) await stop(app);
    otlp?.close();
  });

  test('metrics, traces, a drain on SIGTERM, and output of JSON lines only, with request ids and no secret', async () => {
    const cookie = await signIn(APP, { 'x-request-id': 'sign-in-0123456789abcdef' });
    const streamed = await fetch(`${url(APP)}/api/batches/stream`, { headers: { cookie } });
    expect(streamed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await streamed.text()).trim().split('\n').at(-1)).toMatch(/^\{"done":true,"count":\d+\}$/);
    expect((await fetch(`${url(APP)}/api/settings/targets`, { headers: { cookie } })).status).toBe(200);

    // Metrics: on the loopback port without a token, on the app's port with it.
    expect(await accepts('127.0.0.2', METRICS)).toBe(false);
    const scraped = await (await fetch(`${url(METRICS)}/metrics`)).text();
    expect(scraped).toMatch(/^range_loads_finished_total 1$/m);
    expect(scraped).toMatch(/^sign_ins_total\{method="password",result="success"\} 1$/m);
    // Live sessions as the database counts them: one signed in and out again is not.
    const brief = await signIn(APP);
    expect(
      (await fetch(`${url(APP)}/api/session`, { method: 'DELETE', headers: { cookie: brief, origin: url(APP) } }))
        .status,
    ).toBe(204);
    expect(await (await fetch(`${url(METRICS)}/metrics`)).text()).toMatch(/^sessions_active 1$/m);
    expect(scraped).toMatch(/^batch_service_requests_total\{operation="batches",outcome="ok"\} [1-9]\d*$/m);
    expect(scraped).toMatch(
      /^http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/api\/batches\/stream",http_response_status_code="200"\} 1$/m,
    );
    expect(scraped).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect((await fetch(`${url(APP)}/metrics`)).status).toBe(401);
    expect((await fetch(`${url(APP)}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(
      200,
    );

    // SIGTERM during a slow stream: unready at once, new requests refused, the stream ended with the line the
    // browser resumes from once the grace period (2 s) is over, and the process gone.
    await sandbox('POST', '/_sandbox/faults', { latencyMs: 400 });
    const slow = await fetch(`${url(APP)}/api/batches/stream`, { headers: { cookie } });
    const reader = slow.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value!;
    const signalled = Date.now();
    app.child.kill('SIGTERM');
    await expect
      .poll(async () => (await ready(APP)).body)
      .toMatchObject({ status: 'unready', checks: { instance: 'draining' } });
    const refused = await fetch(`${url(APP)}/api/batches`, { headers: { cookie } });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '5']);
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += part.value;
    const last = JSON.parse(text.trim().split('\n').at(-1)!) as { error: { status: number }; remaining: string };
    expect(last.error.status).toBe(503);
    expect(last.remaining).toMatch(/~/);
    expect(await app.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);

    // Every line, stdout and stderr alike, is one JSON object with a level, a time and a message.
    const lines = app.output.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) expect(Object.keys(line)).toEqual(expect.arrayContaining(['level', 'time', 'msg']));
    expect(app.output.join('\n')).not.toContain('MaxListenersExceededWarning');
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.find((l) => l.path === '/api/session' && l.method === 'POST')).toMatchObject({
      request_id: 'sign-in-0123456789abcdef',
      status: 204,
    });
    for (const line of requests) expect(line.request_id).toMatch(/\S{8,}/);
    const probes = requests.filter((l) => l.route === '/api/health/ready');
    expect(probes.length).toBeGreaterThan(0);
    // Who asked, by the ids of the person and the organisation, never an e-mail address or a client ID.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const streams = requests.filter((l) => l.route === '/api/batches/stream');
    expect(new Set(streams.map((l) => `${l.person_id} ${l.organisation_id}`)).size).toBe(1);
    expect([streams[0]!.person_id, streams[0]!.organisation_id]).toEqual([
      expect.stringMatching(uuid),
      expect.stringMatching(uuid),
    ]);
    const all = app.output.join('\n');
    for (const secret of [
      CONNECTION.clientSecret,
      CONNECTION.clientId,
      DEMO.email,
      DEMO.password,
      SESSION_SECRET,
      TEST_CREDENTIALS_KEY,
      METRICS_TOKEN,
      cookie.split('=')[1]!,
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });

    // Traces went to the collector: the stream's request span, and its exchanges with the service under it.
    type Span = { name: string; kind: number; spanId: string; parentSpanId?: string };
    const spans = exported.flatMap((e) =>
      (e as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] }).resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans),
      ),
    );
    const root = spans.find((s) => s.name === 'GET /api/batches/stream')!;
    expect(root).toBeDefined();
    expect(spans.filter((s) => s.name === 'GET /v2/batches' && s.parentSpanId === root.spanId).length).toBeGreaterThan(
      1,
    );
  });
});
