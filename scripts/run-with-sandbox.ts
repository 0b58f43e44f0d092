/**
 * `npm run demo` (after the build) and `npm run dev`: the dashboard against the bundled sandbox,
 * or against BATCH_API_BASE_URL when it is set (in the environment or a `.env*` file). Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sandboxConfigFromEnv } from '../sandbox/config';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { loadEnvFiles } from '../lib/env-files';
import { DEMO_CREDENTIALS } from '../sandbox/organisations';
import { EXAMPLE_RULE, setUpDemoAlert } from './demo-alert';
import { sandboxPerson, sandboxProvisioning, type PersonRole, type SandboxSlug } from './sandbox-people';

const mode = process.argv[2] === 'dev' ? 'dev' : 'start';
// First, so that PORT, HOST, BATCH_API_BASE_URL and SANDBOX_* from `.env.local` count as they do for Next.
const shellEnv = loadEnvFiles(mode === 'dev' ? 'development' : 'production');
// Empty means unset here, as in .env.example, where every line may be left blank.
const port = process.env.PORT || '3000';
const host = process.env.HOST || '127.0.0.1';

/** The demo's own files, beside its embedded database; readable by this user only. */
const DATA = resolve('.data');
/** The demo's alert check interval, unless WATCH_INTERVAL_S says otherwise: an example alert arrives within it. */
const DEMO_WATCH_INTERVAL_S = '30';
/** How long the app may take to finish its requests and stop once asked to, before it is killed. */
const STOP_GRACE_MS = 15_000;
/** The people `npm run demo` prints: an administrator, an editor and a viewer of the demo organisation, an administrator of Drift Nursery. */
const DEMO_PEOPLE: { slug: SandboxSlug; role: PersonRole }[] = [
  { slug: 'demo', role: 'admin' },
  { slug: 'demo', role: 'editor' },
  { slug: 'demo', role: 'viewer' },
  { slug: 'drift', role: 'admin' },
];

/** A file's text, made by `make` the first time and kept (mode 600): restarts of the demo find the same. */
function kept(name: string, make: () => string): string {
  const path = join(DATA, name);
  if (existsSync(path)) return readFileSync(path, 'utf8');
  mkdirSync(DATA, { recursive: true });
  const text = make();
  writeFileSync(path, text, { mode: 0o600 });
  return text;
}

/**
 * What the app needs to run the sandbox's organisations: a CREDENTIALS_KEY kept in .data/demo-credentials-key
 * (so that secrets stored by one run open in the next), and a PROVISIONING_FILE of the sandbox's
 * organisations and the demo's people, whose passwords are made once (.data/demo-people.json). Variables the
 * person set themselves win.
 */
function demoProvisioning(): {
  env: Record<string, string>;
  people: { email: string; password: string; label: string }[];
} {
  const credentialsKey =
    process.env.CREDENTIALS_KEY || kept('demo-credentials-key', () => randomBytes(32).toString('base64')).trim();
  const passwords = JSON.parse(
    kept('demo-people.json', () =>
      JSON.stringify(
        Object.fromEntries(DEMO_PEOPLE.map((p) => [`${p.slug}/${p.role}`, randomBytes(12).toString('base64url')])),
        null,
        2,
      ),
    ),
  ) as Record<string, string>;
  const people = DEMO_PEOPLE.map((p) => ({ ...p, password: passwords[`${p.slug}/${p.role}`]! }));
  const file = join(DATA, 'demo-provisioning.json');
  writeFileSync(file, JSON.stringify(sandboxProvisioning(people), null, 2), { mode: 0o600 });
  return {
    env: { CREDENTIALS_KEY: credentialsKey, ...(!process.env.PROVISIONING_FILE && { PROVISIONING_FILE: file }) },
    people: people.map((p) => ({
      email: sandboxPerson(p.slug, p.role).email,
      password: p.password,
      label: `${p.slug} ${p.role}`,
    })),
  };
}

/**
 * The example alert on the sandbox, said in the output: where its e-mails go (the mail folder unless SMTP_URL
 * is set) and when it arrives.
 */
async function exampleAlert(sandboxUrl: string, people: { email: string; password: string; label: string }[]) {
  const admin = people.find((p) => p.label === 'demo admin')!;
  const editor = people.find((p) => p.label === 'demo editor')!;
  const interval = process.env.WATCH_INTERVAL_S || DEMO_WATCH_INTERVAL_S;
  const mailDir =
    process.env.MAIL_DIR ||
    join(process.env.SETTINGS_DATA_DIR ? resolve(process.env.SETTINGS_DATA_DIR, '..') : DATA, 'mail');
  try {
    await setUpDemoAlert(
      `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
      sandboxUrl,
      DEMO_CREDENTIALS.clientId,
      admin,
      [admin.email, editor.email],
    );
    console.log(
      `  Example alert:   "${EXAMPLE_RULE}" watches the demo organisation; a batch below target was just added to`,
    );
    console.log(
      `                   the sandbox: within ${interval} s it is on /alerts (the bell) and e-mailed to ${admin.email} and ${editor.email}.`,
    );
    console.log(
      process.env.SMTP_URL
        ? '  E-mails:         sent through SMTP_URL.\n'
        : `  E-mails:         no SMTP_URL is set, so they are written as .eml files to ${mailDir} (open one in a mail program).\n`,
    );
  } catch (error) {
    console.log(`  Example alert:   not set up (${error instanceof Error ? error.message : String(error)}).\n`);
  }
}

/** The Chromium the demo lets the server print scheduled reports' PDF with: the one set, else Debian's when installed. */
function demoChromium(): string | undefined {
  if (process.env.PDF_CHROMIUM_PATH) return process.env.PDF_CHROMIUM_PATH;
  const debian = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  return existsSync(debian) ? debian : undefined;
}

async function main() {
  let sandbox: Sandbox | undefined;
  let baseUrl = process.env.BATCH_API_BASE_URL;
  if (!baseUrl) {
    sandbox = await startSandbox(sandboxConfigFromEnv());
    baseUrl = sandbox.url;
  }
  // Next gets the environment from before the files were loaded and loads them itself (same directory, same
  // mode): `next dev` then reloads an edited `.env.local`. Only what the launcher decided is passed on top.
  const demo = sandbox ? demoProvisioning() : undefined;
  const chromium = sandbox ? demoChromium() : undefined;
  // `start` is the production server (server/main.ts, built by `npm run build`), as `npm start` runs it.
  const args =
    mode === 'dev' ? ['node_modules/next/dist/bin/next', 'dev', '-p', port, '-H', host] : ['.next/app-server.js'];
  const next = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...shellEnv,
      PORT: port,
      HOST: host,
      BATCH_API_BASE_URL: baseUrl,
      ...(sandbox && { DASHBOARD_DEMO: '1', WATCH_INTERVAL_S: process.env.WATCH_INTERVAL_S || DEMO_WATCH_INTERVAL_S }),
      ...demo?.env,
      ...(chromium && { PDF_CHROMIUM_PATH: chromium }),
      NEXT_TELEMETRY_DISABLED: '1',
    },
  });

  let announced = false;
  next.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /ready|started server|Local:|"msg":"listening"/i.test(chunk.toString())) {
      announced = true;
      console.log('');
      console.log(`  Dashboard:       http://${host}:${port}`);
      if (sandbox) {
        console.log(`  Sandbox service: ${sandbox.url} (the bundled Batch Data Service emulator)`);
        for (const person of demo!.people)
          console.log(`  Sign in (${person.label}):`.padEnd(26) + `${person.email}  password ${person.password}`);
        console.log(
          chromium
            ? `  Reports:         a saved view sent on a schedule carries its printed report as PDF (printed with ${chromium}).`
            : '  Reports:         no Chromium found (PDF_CHROMIUM_PATH), so scheduled reports carry the workbook and link to Print report.',
        );
        void exampleAlert(sandbox.url, demo!.people);
      } else {
        console.log(`  Batch Data Service: ${baseUrl}`);
      }
      console.log('  Press Ctrl-C to stop.\n');
    }
  });

  const running = () => next.exitCode === null && next.signalCode === null;
  const exited = new Promise<void>((resolve) => next.once('exit', () => resolve()));
  let stopping = false;
  /** The app first (its drain on SIGTERM, else killed after STOP_GRACE_MS), then the sandbox, then this process. */
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (running()) {
      next.kill('SIGTERM');
      const grace = setTimeout(() => running() && next.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    }
    await sandbox?.close();
    process.exit(code);
  };
  next.on('exit', (code) => void stop(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
  // However this process ends (an error of its own included), the app it started does not outlive it.
  process.on('exit', () => running() && next.kill('SIGKILL'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
