import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_URL } from '../../playwright.config';
import { TEST_CREDENTIALS_KEY } from '../helpers/people';

export type AppInstance = { url: string; stop(): Promise<void> };

/**
 * Another production server (`npm start`'s) of the same build, with its own settings (short session limits, a
 * second instance…): the test's people provisioned, and an embedded database of its own (removed when it
 * stops) unless `env` names one (DATABASE_URL, or SETTINGS_DATA_DIR to keep it across a restart).
 */
export async function startApp(port: number, env: Record<string, string>, output?: string[]): Promise<AppInstance> {
  const ownDir = env.DATABASE_URL || env.SETTINGS_DATA_DIR ? null : mkdtempSync(join(tmpdir(), 'tsb-instance-'));
  const child: ChildProcess = spawn(process.execPath, ['.next/app-server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BATCH_API_BASE_URL: SANDBOX_URL,
      SESSION_SECRET: 'instance-session-secret-0123456789-abcdef',
      NEXT_TELEMETRY_DISABLED: '1',
      PROVISIONING_FILE: process.env.E2E_PROVISIONING_FILE,
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      ...(ownDir && { SETTINGS_DATA_DIR: ownDir }),
      ...env,
    },
    stdio: output ? ['ignore', 'pipe', 'pipe'] : 'ignore',
  });
  // Every line the server prints, stdout and stderr, for tests of its logs.
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (d: Buffer) => output?.push(...d.toString().split('\n').filter(Boolean)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(url + '/api/session');
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`app on ${port} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }).then(() => {
        if (ownDir) rmSync(ownDir, { recursive: true, force: true });
      }),
  };
}
