import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';

/** `npm run demo` after its build step: the sandbox and the app start together and stop together on Ctrl-C. */
test('the demo launcher prints the URL and demo credentials, serves the app, and stops both on SIGINT', async ({ page }) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-with-sandbox.ts', 'start'], {
    env: { ...process.env, PORT: '3520', SANDBOX_PORT: '4520', BATCH_API_BASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await expect.poll(() => output, { timeout: 30_000 }).toContain('Press Ctrl-C to stop');
    expect(output).toContain('http://127.0.0.1:3520');
    expect(output).toContain('client ID "demo-client", client secret "demo-secret"');
    expect(output).toContain('http://127.0.0.1:4520');

    await page.goto('http://127.0.0.1:3520/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tray-scan batches');
    // On the bundled sandbox the sign-in page says so and shows the demo credentials.
    await expect(page.getByRole('complementary', { name: 'Demo credentials' })).toContainText('demo-secret');
    const auth = await fetch('http://127.0.0.1:4520/v2/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
    });
    expect(auth.status).toBe(200);

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect(fetch('http://127.0.0.1:3520/')).rejects.toThrow();
    await expect(fetch('http://127.0.0.1:4520/_sandbox/stats')).rejects.toThrow();
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
