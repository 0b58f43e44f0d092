import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const REPO = path.resolve(__dirname, '..', '..');
/** What the launcher and `next start` need from a project directory (the build included). */
const PROJECT_ENTRIES = [
  'node_modules',
  '.next',
  'package.json',
  'next.config.mjs',
  'scripts',
  'sandbox',
  'lib',
  'tsconfig.json',
];

/** Process groups of the launchers this file started (each launcher leads its own, its app in it). */
const groups = new Set<number>();

/** The processes of a group still running, as `pid name` (from /proc; zombies, already ended, left out). */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and brackets, so the fields are read after its last ')'.
    const close = stat.lastIndexOf(')');
    const [state, , group] = stat.slice(close + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') members.push(`${pid} ${stat.slice(stat.indexOf('(') + 1, close)}`);
  }
  return members;
}

/** Kills whatever is left of the launchers' groups: a test that failed or timed out leaves no app or sandbox behind. */
function killGroups() {
  for (const pgid of groups) {
    if (groupMembers(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
    groups.delete(pgid);
  }
}
test.afterEach(killGroups);
// A worker stopped before its hooks could run (the run interrupted, a crash) still takes the groups with it.
process.once('exit', killGroups);

/** `npm run demo`'s launcher (after its build step) in `cwd`, with everything it prints collected. */
function launch(cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'scripts/run-with-sandbox.ts'), 'start'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that everything it starts can be found and stopped, by the group's id.
    detached: true,
  });
  groups.add(child.pid!);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Ctrl-C stops the app and the sandbox, both, with exit code 0, and leaves no process of theirs running. */
async function stopsOnSigint(child: ChildProcess, appUrl: string, sandboxUrl: string) {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(groupMembers(child.pid!)).toEqual([]);
  await expect(fetch(appUrl)).rejects.toThrow();
  await expect(fetch(`${sandboxUrl}/_sandbox/stats`)).rejects.toThrow();
}

/** The accounts the launcher printed: `Sign in (demo admin):   admin@demo.example  password …`. */
const accountsIn = (output: string) =>
  Object.fromEntries(
    [...output.matchAll(/Sign in \((\w+ \w+)\):\s+(\S+)\s+password (\S+)/g)].map((m) => [
      m[1]!,
      { email: m[2]!, password: m[3]! },
    ]),
  );

/** `npm run demo` after its build step: the sandbox and the app start together and stop together on Ctrl-C. */
test('the demo launcher prints the URL and the demo’s people, serves the app, and stops both on SIGINT', async ({
  page,
}) => {
  const project = await mkdtemp(path.join(tmpdir(), 'demo-run-'));
  await Promise.all(PROJECT_ENTRIES.map((entry) => symlink(path.join(REPO, entry), path.join(project, entry))));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '3520', SANDBOX_PORT: '4520', BATCH_API_BASE_URL: '' };
  for (const name of ['CREDENTIALS_KEY', 'PROVISIONING_FILE', 'SETTINGS_DATA_DIR']) delete env[name];
  let { child, output } = launch(project, env);
  try {
    await expect.poll(output, { timeout: 60_000 }).toContain('Press Ctrl-C to stop');
    expect(output()).toContain('http://127.0.0.1:3520');
    expect(output()).toContain('http://127.0.0.1:4520');
    // An administrator, an editor and a viewer of the demo organisation, an administrator of Drift Nursery.
    const accounts = accountsIn(output());
    expect(Object.keys(accounts).sort()).toEqual(['demo admin', 'demo editor', 'demo viewer', 'drift admin']);
    expect(accounts['demo admin']!.email).toBe('admin@demo.example');
    expect(output()).not.toContain('demo-secret');

    await page.goto('http://127.0.0.1:3520/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tray-scan batches');
    // On the bundled sandbox the sign-in page says where the demo's accounts are, never a password.
    await expect(page.getByRole('complementary', { name: 'Demo accounts' })).toContainText('npm run demo');
    await page.getByLabel('Email').fill(accounts['demo admin']!.email);
    await page.getByLabel('Password').fill(accounts['demo admin']!.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The first sign-in of a new demo waits for the embedded database's first start and the provisioning.
    await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Connection' })).toBeVisible(
      { timeout: 60_000 },
    );
    await expect(page.getByRole('status').first()).toHaveText(/^[\d,]+ batches$/, { timeout: 30_000 });
    await stopsOnSigint(child, 'http://127.0.0.1:3520/', 'http://127.0.0.1:4520');

    // Started again on the same directory: the same key and people, so the same passwords work and are printed.
    ({ child, output } = launch(project, env));
    await expect.poll(output, { timeout: 60_000 }).toContain('Press Ctrl-C to stop');
    expect(accountsIn(output())).toEqual(accounts);
    const signIn = await fetch('http://127.0.0.1:3520/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3520' },
      body: JSON.stringify(accounts['drift admin']),
    });
    expect(signIn.status).toBe(204);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch('http://127.0.0.1:3520/api/batches', { headers: { cookie } })).status).toBe(200);
    const auth = await fetch('http://127.0.0.1:4520/v2/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
    });
    expect(auth.status).toBe(200);
    await stopsOnSigint(child, 'http://127.0.0.1:3520/', 'http://127.0.0.1:4520');
  } finally {
    killGroups();
    await rm(project, { recursive: true, force: true });
  }
});

/**
 * `.env.local` configures the demo as it configures Next. It is written into a throw-away project directory
 * (symlinks to this one) because a developer's own `.env.local` in the repository must stay untouched.
 */
test('the demo launcher takes its ports, sandbox switches and session secret from .env.local', async ({ page }) => {
  const project = await mkdtemp(path.join(tmpdir(), 'demo-env-'));
  await Promise.all(PROJECT_ENTRIES.map((entry) => symlink(path.join(REPO, entry), path.join(project, entry))));
  await writeFile(
    path.join(project, '.env.local'),
    [
      'PORT=3522',
      'SANDBOX_PORT=4522',
      'SANDBOX_BATCHES=120',
      `SESSION_SECRET=${'env-local-secret-'.repeat(3)}`,
      'BATCH_API_BASE_URL=',
      '',
    ].join('\n'),
  );
  // Only the file may supply these. NODE_ENV=test would make Next (and so the launcher) skip .env.local.
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(PORT|HOST|NODE_ENV|BATCH_API_BASE_URL|SESSION_SECRET|CREDENTIALS_KEY|PROVISIONING_FILE|SETTINGS_DATA_DIR|SANDBOX_.*)$/.test(
        name,
      )
    )
      delete env[name];
  }
  const { child, output } = launch(project, env);
  try {
    await expect.poll(output, { timeout: 30_000 }).toContain('Press Ctrl-C to stop');
    expect(output()).toContain('http://127.0.0.1:3522');
    expect(output()).toContain('Sandbox service: http://127.0.0.1:4522');

    // The example alert: a rule on the demo organisation and a batch below target added to the sandbox;
    // without SMTP_URL its e-mails go to a folder, as the output says.
    await expect.poll(output, { timeout: 60_000 }).toContain('Example alert:');
    const mailDir = path.join(project, '.data', 'mail');
    expect(output()).toContain(`no SMTP_URL is set, so they are written as .eml files to ${mailDir}`);

    // The blank BATCH_API_BASE_URL meant the bundled sandbox, and it generated the file's number of batches
    // (and the example alert's one).
    const auth = await fetch('http://127.0.0.1:4522/v1/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
    });
    expect(auth.status).toBe(200);
    const { access_token: token } = (await auth.json()) as { access_token: string };
    const batches = await fetch('http://127.0.0.1:4522/v1/batches', { headers: { authorization: `Bearer ${token}` } });
    expect(((await batches.json()) as unknown[]).length).toBe(121);
    // Within the demo's check interval, the alert's e-mails are in the folder.
    await expect
      .poll(() => (existsSync(mailDir) ? readdirSync(mailDir).filter((f) => f.endsWith('.eml')).length : 0), {
        timeout: 90_000,
      })
      .toBe(2);
    const eml = readFileSync(
      path.join(
        mailDir,
        readdirSync(mailDir).find((f) => f.endsWith('.eml'))!,
      ),
      'utf8',
    );
    expect(eml).toContain('Example: trays below target');

    await page.goto('http://127.0.0.1:3522/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tray-scan batches');
    await expect(page.getByRole('complementary', { name: 'Demo accounts' })).toContainText('npm run demo');
    // The app validated its configuration at start-up with the file's secret instead of generating one.
    expect(output()).not.toContain('SESSION_SECRET is not set');
    await stopsOnSigint(child, 'http://127.0.0.1:3522/', 'http://127.0.0.1:4522');
  } finally {
    killGroups();
    await rm(project, { recursive: true, force: true });
  }
});
