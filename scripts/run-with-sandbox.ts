/**
 * `npm run demo` (after the build) and `npm run dev`: the dashboard against the bundled sandbox,
 * or against BATCH_API_BASE_URL when it is set (in the environment or a `.env*` file). Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import { sandboxConfigFromEnv } from '../sandbox/config';
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from '../sandbox/organisations';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { loadEnvFiles } from '../lib/env-files';

const mode = process.argv[2] === 'dev' ? 'dev' : 'start';
// First, so that PORT, HOST, BATCH_API_BASE_URL and SANDBOX_* from `.env.local` count as they do for Next.
const shellEnv = loadEnvFiles(mode === 'dev' ? 'development' : 'production');
// Empty means unset here, as in .env.example, where every line may be left blank.
const port = process.env.PORT || '3000';
const host = process.env.HOST || '127.0.0.1';

async function main() {
  let sandbox: Sandbox | undefined;
  let baseUrl = process.env.BATCH_API_BASE_URL;
  if (!baseUrl) {
    sandbox = await startSandbox(sandboxConfigFromEnv());
    baseUrl = sandbox.url;
  }
  // Next gets the environment from before the files were loaded and loads them itself (same directory, same
  // mode): `next dev` then reloads an edited `.env.local`. Only what the launcher decided is passed on top.
  // `start` is the production server (server/main.ts, built by `npm run build`), as `npm start` runs it.
  const args = mode === 'dev' ? ['node_modules/next/dist/bin/next', 'dev', '-p', port, '-H', host] : ['.next/app-server.js'];
  const next = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...shellEnv, PORT: port, HOST: host, BATCH_API_BASE_URL: baseUrl, ...(sandbox && { DASHBOARD_DEMO: '1' }), NEXT_TELEMETRY_DISABLED: '1' },
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
        console.log(`  Demo sign-in:    client ID "${DEMO_CREDENTIALS.clientId}", client secret "${DEMO_CREDENTIALS.clientSecret}"`);
        console.log(`  Second org:      client ID "${OTHER_CREDENTIALS.clientId}", client secret "${OTHER_CREDENTIALS.clientSecret}"`);
      } else {
        console.log(`  Batch Data Service: ${baseUrl}`);
      }
      console.log('  Press Ctrl-C to stop.\n');
    }
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (next.exitCode === null) next.kill('SIGTERM');
    await sandbox?.close();
    process.exit(code);
  };
  next.on('exit', (code) => void stop(code ?? 0));
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
