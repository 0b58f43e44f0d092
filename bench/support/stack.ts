/**
 * The pieces every bench needs: the sandbox (in this process), the built app (a child process running
 * `next start`), and a signed-in session cookie. Everything listens on loopback, on ports 4600-4699.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SandboxOptions } from '../../sandbox/config';
import { DEMO_CREDENTIALS } from '../../sandbox/organisations';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { BENCH_HOST, BENCH_PORT_MAX, BENCH_PORT_MIN, freeBenchPort } from './ports';

export type { Sandbox, SandboxOptions };
export { freeBenchPort };

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Whose build `next start` serves: this checkout, or BENCH_APP_DIR (another checkout, built) for before/after. */
export const APP_DIR = process.env.BENCH_APP_DIR || ROOT;
/** Only the benches know it; 32+ characters as the app requires in production. */
export const BENCH_SESSION_SECRET = 'bench-session-secret-0123456789-abcdefghijkl';

export type BenchApp = { url: string; pid: number; stop(): Promise<void> };

const children = new Set<ChildProcess>();

// A bench that throws, or a Ctrl-C, must not leave a server behind.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(130);
  });
}

function checkPort(port: number) {
  if (!Number.isInteger(port) || port < BENCH_PORT_MIN || port > BENCH_PORT_MAX) {
    throw new Error(`bench port ${port} is outside ${BENCH_PORT_MIN}-${BENCH_PORT_MAX}`);
  }
}

/** The sandbox in this process, on loopback, on a free bench port unless one is given. */
export async function startBenchSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const port = options.port === undefined || options.port === 0 ? await freeBenchPort() : Number(options.port);
  checkPort(port);
  return startSandbox({ ...options, host: BENCH_HOST, port });
}

/** A server in a child process of ours (killed when this process exits), its last output kept for errors. */
function spawnServer(args: string[], cwd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void ended.then(() => children.delete(child));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (exited()) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await ended;
    clearTimeout(killer);
  };
  return { pid: child.pid!, stop, output: () => output, exited };
}

/** The production build (`npm run build` first) in its own process; resolves once it answers HTTP. */
export async function startBenchApp(opts: {
  port: number;
  sandboxUrl: string;
  env?: Record<string, string>;
  /** Extra node flags for the server, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** The built checkout to serve, default APP_DIR: two in one run for a side-by-side before/after. */
  dir?: string;
}): Promise<BenchApp> {
  checkPort(opts.port);
  const { pid, stop, output, exited } = spawnServer(
    [...(opts.nodeArgs ?? []), 'node_modules/next/dist/bin/next', 'start', '-p', String(opts.port), '-H', BENCH_HOST],
    opts.dir ?? APP_DIR,
    {
      NODE_ENV: 'production',
      BATCH_API_BASE_URL: opts.sandboxUrl,
      SESSION_SECRET: BENCH_SESSION_SECRET,
      NEXT_TELEMETRY_DISABLED: '1',
      ...opts.env,
    },
  );
  const url = `http://${BENCH_HOST}:${opts.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await (await fetch(`${url}/api/session`)).arrayBuffer();
      break;
    } catch {
      if (exited() || Date.now() > deadline) {
        await stop();
        throw new Error(`the app on port ${opts.port} did not start (was \`npm run build\` run?)\n${output()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, pid, stop };
}

/** Signs in through the BFF, as the sign-in page does, and returns the `Cookie` header value. */
export async function signIn(
  appUrl: string,
  credentials: { clientId: string; clientSecret: string } = DEMO_CREDENTIALS,
): Promise<string> {
  const response = await fetch(`${appUrl}/api/session`, {
    method: 'POST',
    // The same-origin check wants the app's own Origin on state-changing requests.
    headers: { 'content-type': 'application/json', origin: appUrl },
    body: JSON.stringify({ clientId: credentials.clientId, clientSecret: credentials.clientSecret }),
  });
  if (response.status !== 204) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('tsb_session='));
  if (!cookie) throw new Error('sign-in: no tsb_session cookie in the answer');
  return cookie.split(';')[0]!;
}

/** A v2 bearer token straight from the sandbox, for the direct side of a comparison. */
export async function sandboxToken(
  sandboxUrl: string,
  credentials: { clientId: string; clientSecret: string } = DEMO_CREDENTIALS,
): Promise<string> {
  const response = await fetch(`${sandboxUrl}/v2/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    }).toString(),
  });
  if (response.status !== 200) throw new Error(`sandbox auth: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * The minimal `node:http` proxy of issue 16's capacity target (bench/support/minimal-proxy.mjs) in its own
 * process, with the app's session secret, so the same cookies open in both.
 */
export async function startMinimalProxy(opts: { port: number; sandboxUrl: string }): Promise<BenchApp> {
  checkPort(opts.port);
  const script = fileURLToPath(new URL('./minimal-proxy.mjs', import.meta.url));
  const { pid, stop, output, exited } = spawnServer([script], ROOT, {
    PORT: String(opts.port),
    UPSTREAM: opts.sandboxUrl,
    SESSION_SECRET: BENCH_SESSION_SECRET,
  });
  const url = `http://${BENCH_HOST}:${opts.port}`;
  const deadline = Date.now() + 10_000;
  while (!output().includes('minimal proxy on')) {
    if (exited() || Date.now() > deadline) {
      await stop();
      throw new Error(`the minimal proxy did not start\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, pid, stop };
}
