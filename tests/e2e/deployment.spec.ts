import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { freePort, startShippedNginx, type ShippedNginx } from '../helpers/nginx';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { TEST_CREDENTIALS_KEY } from '../helpers/people';
import { spawnRedisServer } from '../helpers/redis-server';
import { DEMO } from './support';

/**
 * The deploy recipe as docs/operations.md gives it: the shipped nginx site (TLS with a certificate made here)
 * in front of two production instances on loopback, sharing PostgreSQL and Redis. One instance is killed in the
 * middle of a 100,000-batch stream; the secrets are rotated step by step across the two.
 */
const SIGN_IN = { email: DEMO.email, password: DEMO.password };
const OLD_SECRET = 'deployment-old-session-secret-0123456789ab';
const NEW_SECRET = 'deployment-new-session-secret-0123456789ab';

type Instance = { port: number; metricsPort: number; child: ChildProcess; exited: Promise<unknown> };

let sandbox: Sandbox;
let postgres: PostgresServer;
let databaseUrl: string;
let redis: ChildProcess;
let redisPort: number;
const running = new Set<Instance>();

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `node .next/app-server.js` as the shipped unit runs it: loopback, behind one proxy, the shared stores. */
async function startInstance(
  secrets: { current: string; previous?: string } = { current: OLD_SECRET },
): Promise<Instance> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['.next/app-server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      TRUSTED_PROXY_HOPS: '1',
      BATCH_API_BASE_URL: sandbox.url,
      DATABASE_URL: databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
      SESSION_SECRET: secrets.current,
      SESSION_SECRET_PREVIOUS: secrets.previous ?? '',
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      PROVISIONING_FILE: process.env.E2E_PROVISIONING_FILE!,
      SIGNIN_ATTEMPTS_PER_IP: '1000',
    },
    stdio: 'ignore',
  });
  const instance = { port, metricsPort, child, exited: new Promise((resolve) => child.once('exit', resolve)) };
  running.add(instance);
  await expect
    .poll(
      async () =>
        fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
  return instance;
}

async function stopInstance(instance: Instance, signal: NodeJS.Signals = 'SIGTERM') {
  running.delete(instance);
  if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill(signal);
  await instance.exited;
}

/** A counter of this instance, from its own metrics. */
async function metric(instance: Instance, name: string): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${instance.metricsPort}/metrics`).then((r) => r.text());
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, batches: 100_000, seed: 'e2e-deployment', pageSize: 100 });
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase('deployment');
  redisPort = await freePort();
  redis = spawnRedisServer(redisPort);
  await expect.poll(() => accepts(redisPort)).toBe(true);
});

test.afterAll(async () => {
  await Promise.all([...running].map((i) => stopInstance(i)));
  redis?.kill('SIGTERM');
  await postgres?.stop();
  await sandbox?.close();
});

const faults = (settings: Record<string, unknown>) =>
  fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  }).then((r) => {
    expect(r.status).toBe(200);
  });
const status = (page: Page) => page.getByRole('status').first();
const summary = (page: Page) => page.getByRole('region', { name: 'Summary' });
const batchesShown = async (page: Page) => Number(((await status(page).textContent()) ?? '').replace(/\D/g, ''));

test('behind the shipped nginx over https: an instance killed mid-stream, and Retry fetches only what is missing, each batch once', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const instances = [await startInstance(), await startInstance()];
  const nginx: ShippedNginx = await startShippedNginx(instances.map((i) => `127.0.0.1:${i.port}`));
  try {
    // Plain http is sent to https.
    const redirect = await fetch(`${nginx.http}/batches`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toMatch(/^https:\/\/127\.0\.0\.1(:\d+)?\/batches$/);

    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const signedIn = await page.request.post(`${nginx.https}/api/session`, {
      data: SIGN_IN,
      headers: { origin: nginx.https },
    });
    expect(signedIn.status()).toBe(204);
    // Over https the cookie is the __Host- one, Secure.
    expect(signedIn.headers()['set-cookie']).toMatch(/^__Host-[^;]+;.*Secure/i);

    const streams: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/batches/stream' && request.method() === 'GET') streams.push(url);
    });

    // Slow enough that the whole range is still streaming when the instance is killed.
    await faults({ latencyMs: 150 });
    await page.goto(`${nginx.https}/batches?from=all&to=now&tz=UTC`);
    await expect.poll(() => batchesShown(page), { timeout: 60_000 }).toBeGreaterThan(5_000);
    const serving = (await Promise.all(instances.map((i) => metric(i, 'range_loads_started_total')))).findIndex(
      (n) => n > 0,
    );
    expect(serving).toBeGreaterThanOrEqual(0);
    await stopInstance(instances[serving]!, 'SIGKILL');
    const survivor = instances[1 - serving]!;

    await expect(summary(page).getByRole('alert')).toContainText('The batches already loaded are kept.', {
      timeout: 30_000,
    });
    const kept = await batchesShown(page);
    expect(kept).toBeLessThan(100_000);
    await faults({ latencyMs: 0 });
    await summary(page).getByRole('button', { name: 'Retry and continue loading' }).click();
    await expect(status(page)).toHaveText('100,000 batches', { timeout: 120_000 });

    // The retry asked for the unfinished parts only, and the instance still running sent them.
    expect(streams).toHaveLength(2);
    const parts = streams[1]!.searchParams.get('parts');
    expect(parts).toMatch(/~/);
    const again = await metric(survivor, 'range_load_batches_streamed_total');
    expect(kept + again).toBeGreaterThanOrEqual(100_000);
    // The sandbox pages oldest first: each unfinished part resumes from where it got to, so little more than
    // what was missing is sent again (a page or two of each part in flight).
    expect(again).toBeLessThan(100_000 - kept + 10_000);
    console.log(
      `deployment: ${kept} batches kept when the instance was killed; the retry sent ${again} in ${parts!.split(',').length} parts`,
    );
    await context.close();
  } finally {
    await nginx.stop();
    await Promise.all(instances.filter((i) => running.has(i)).map((i) => stopInstance(i)));
  }
});

test('SESSION_SECRET rotated as documented across two instances a step apart: nobody is signed out at any step', async () => {
  test.setTimeout(180_000);
  const steps = [
    { current: OLD_SECRET },
    { current: OLD_SECRET, previous: NEW_SECRET },
    { current: NEW_SECRET, previous: OLD_SECRET },
    { current: NEW_SECRET },
  ];
  const signIn = async (instance: Instance) => {
    const url = `http://127.0.0.1:${instance.port}`;
    const response = await fetch(`${url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify(SIGN_IN),
    });
    expect(response.status).toBe(204);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  };
  const opens = async (instance: Instance, cookie: string) =>
    (await fetch(`http://127.0.0.1:${instance.port}/api/session`, { headers: { cookie } })).status;

  let a = await startInstance(steps[0]);
  let b = await startInstance(steps[0]);
  // Cookies still within their lifetime, each sealed at some step.
  let cookies = [await signIn(a)];
  try {
    for (let i = 1; i < steps.length; i++) {
      // A takes step i while B is still at step i - 1.
      await stopInstance(a);
      a = await startInstance(steps[i]);
      cookies.push(await signIn(a), await signIn(b));
      for (const cookie of cookies) expect([await opens(a, cookie), await opens(b, cookie)]).toEqual([200, 200]);
      // B follows. Before the last step the old secret's cookies have outlived SESSION_TTL_S (as the runbook
      // waits for): only those sealed with the new secret are still in use.
      await stopInstance(b);
      b = await startInstance(steps[i]);
      cookies.push(await signIn(b));
      for (const cookie of cookies) expect([await opens(a, cookie), await opens(b, cookie)]).toEqual([200, 200]);
      if (i === 2) cookies = [await signIn(a), await signIn(b)];
    }
  } finally {
    await Promise.all([a, b].filter((i) => running.has(i)).map((i) => stopInstance(i)));
  }
});
