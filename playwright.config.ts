import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium';
import { TEST_CREDENTIALS_KEY, TEST_PROVISIONING } from './tests/helpers/people';

const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4510);
const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3510);
export const SANDBOX_URL = `http://127.0.0.1:${SANDBOX_PORT}`;
/** Known to the tests so they can prove it never reaches the browser. */
export const E2E_SESSION_SECRET = 'e2e-session-secret-0123456789-abcdefghijkl';

// The app's saved settings start empty on every run: a directory of this run's own (workers load this file
// again and inherit the variable, so only the runner makes it, and removes it as it exits).
// The sandbox's organisations and a person of each role in each are provisioned at the app's start (a file
// beside that directory: the tests' people and their passwords are in tests/helpers/people.ts).
if (!process.env.E2E_SETTINGS_DATA_DIR) {
  const dir = join(tmpdir(), `tsb-e2e-settings-${process.pid}`);
  const provisioning = `${dir}-provisioning.json`;
  writeFileSync(provisioning, JSON.stringify(TEST_PROVISIONING), { mode: 0o600 });
  process.env.E2E_SETTINGS_DATA_DIR = dir;
  process.env.E2E_PROVISIONING_FILE = provisioning;
  process.once('exit', () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(provisioning, { force: true });
  });
}

/** End-to-end: the production build (`next build` runs first) against the sandbox, in Debian's Chromium. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    browserName: 'chromium',
    // A British English browser unless a spec says otherwise (the German and Dutch specs, the en-US exports):
    // numbers and dates follow the browser's locale, and the specs' expected texts are written in en-GB.
    locale: 'en-GB',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  webServer: [
    {
      command: 'node --import tsx sandbox/main.ts',
      url: `${SANDBOX_URL}/_sandbox/stats`,
      env: { SANDBOX_PORT: String(SANDBOX_PORT), SANDBOX_SEED: 'e2e' },
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      // The production server, as `npm start` runs it (without npm's banner).
      command: 'node .next/app-server.js',
      url: `http://127.0.0.1:${APP_PORT}`,
      // The suite signs in many times from one address, some of them wrongly (hostile-input.spec.ts); the
      // throttle has its own instances in sign-in-throttle.spec.ts.
      env: {
        PORT: String(APP_PORT),
        HOST: '127.0.0.1',
        BATCH_API_BASE_URL: SANDBOX_URL,
        SESSION_SECRET: E2E_SESSION_SECRET,
        BATCH_API_TIMEOUT_MS: '3000',
        NEXT_TELEMETRY_DISABLED: '1',
        SIGNIN_ATTEMPTS_PER_IP: '100000',
        SIGNIN_FAILURES_PER_IP: '100000',
        SIGNIN_FAILURES_PER_ACCOUNT: '100000',
        SETTINGS_DATA_DIR: process.env.E2E_SETTINGS_DATA_DIR,
        PROVISIONING_FILE: process.env.E2E_PROVISIONING_FILE!,
        CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
        // The alerts watcher checks every 5 s (its floor), so a spec sees a new batch reported within seconds.
        WATCH_INTERVAL_S: '5',
      },
      reuseExistingServer: false,
    },
  ],
});
