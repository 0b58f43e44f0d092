import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { SandboxOptions } from '../../sandbox/config';
import { DEMO_CREDENTIALS, type Organisation } from '../../sandbox/organisations';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { freePort } from './postgres-server';

/** One sandbox per test file on a free port, faults and counters reset before each test. */
export function sandboxForFile(options: SandboxOptions = {}, extra: Organisation[] = []): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, anchor: new Date('2026-06-01T00:00:00Z'), ...options }, extra);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(async () => {
    await control(sandbox!, 'POST', '/_sandbox/reset');
  });
  return () => sandbox!;
}

/**
 * One sandbox per test file in a process of its own (`npm run sandbox`, configured by SANDBOX_* variables), on
 * a free port: for tests that time the app, whose event loop must not also serve the service. Faults and
 * counters are reset before each test.
 */
export function sandboxProcessForFile(env: Record<string, string> = {}): () => Pick<Sandbox, 'url'> {
  let child: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts'], {
      env: { ...process.env, SANDBOX_PORT: String(port), ...env },
      stdio: 'ignore',
    });
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the sandbox process exited (${child.exitCode})`);
      if (
        await fetch(`${url}/_sandbox/stats`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });
  beforeEach(async () => {
    await control({ url }, 'POST', '/_sandbox/reset');
  });
  return () => ({ url });
}

/** Drives the sandbox's switches over HTTP, as a separate process would. */
export async function control(sandbox: Pick<Sandbox, 'url'>, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(sandbox.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${await response.text()}`);
  return response.json();
}

export async function authForm(sandbox: Sandbox, version: string, fields: Record<string, string>) {
  return fetch(`${sandbox.url}/${version}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

export async function tokenFor(
  sandbox: Sandbox,
  version = 'v2',
  credentials: { clientId: string; clientSecret: string } = DEMO_CREDENTIALS,
): Promise<string> {
  const response = await authForm(sandbox, version, {
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });
  if (response.status !== 200) throw new Error(`auth failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export async function getBatches(
  sandbox: Sandbox,
  version: string,
  token: string | null,
  query: Record<string, string> = {},
) {
  const url = new URL(`${sandbox.url}/${version}/batches`);
  for (const [k, v] of Object.entries(query)) url.searchParams.append(k, v);
  return fetch(url, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}

/** Walks every v2 page with raw HTTP: the reference the fast paths are compared with. */
export async function walkV2(sandbox: Sandbox, token: string, query: Record<string, string> = {}) {
  const all: { batch_id: string; batch_creation_date: string }[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const response = await getBatches(sandbox, 'v2', token, next ? { ...query, next_token: next } : query);
    if (response.status !== 200) throw new Error(`page ${pages}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { data: typeof all; next_token: string | null };
    all.push(...body.data);
    next = body.next_token;
    pages++;
  } while (next !== null);
  return { batches: all, pages };
}
