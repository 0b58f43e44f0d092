import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A fresh context holding the session cookie (`name=value`, as `signIn` returns it) for `appUrl`. */
export async function signedInContext(browser: Browser, appUrl: string, cookie: string, viewport?: { width: number; height: number }): Promise<BrowserContext> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  const name = cookie.slice(0, cookie.indexOf('='));
  await context.addCookies([{ name, value: cookie.slice(name.length + 1), url: appUrl, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}
