import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium';
import { signIn, startBenchApp, startBenchSandbox, type BenchApp, type Sandbox, type SandboxOptions } from './stack';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A fresh context holding the session cookie (`name=value`, as `signIn` returns it) for `appUrl`. */
export async function signedInContext(
  browser: Browser,
  appUrl: string,
  cookie: string,
  viewport?: { width: number; height: number },
): Promise<BrowserContext> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  const name = cookie.slice(0, cookie.indexOf('='));
  await context.addCookies([
    { name, value: cookie.slice(name.length + 1), url: appUrl, httpOnly: true, sameSite: 'Lax' },
  ]);
  return context;
}

export type BrowserStack = { sandbox: Sandbox; appUrl: string; browser: Browser; cookie: string; total: number };

/**
 * The sandbox, the built app on it and Chromium, with a signed-in session of the demo organisation (`total`
 * batches) for `work`; all three are stopped afterwards, whatever happens.
 */
export async function withBrowserStack<T>(
  options: { sandbox: SandboxOptions; appPort: number; appEnv?: Record<string, string> },
  work: (stack: BrowserStack) => Promise<T>,
): Promise<T> {
  const sandbox = await startBenchSandbox(options.sandbox);
  let app: BenchApp | undefined;
  let browser: Browser | undefined;
  try {
    app = await startBenchApp({ port: options.appPort, sandboxUrl: sandbox.url, env: options.appEnv });
    browser = await launchChromium();
    const cookie = await signIn(app.url);
    return await work({ sandbox, appUrl: app.url, browser, cookie, total: sandbox.organisations[0]!.batches.length });
  } finally {
    await browser?.close();
    await app?.stop();
    await sandbox.close();
  }
}
