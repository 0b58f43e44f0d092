import type { BrowserContext } from '@playwright/test';
import { APP_URL, DEMO, signIn, type Credentials } from './support';

/** Gives the browser context a session of `credentials` (signed in over the API, as the form would). */
export async function signInContext(context: BrowserContext, credentials: Credentials = DEMO): Promise<string> {
  const cookie = await signIn(credentials);
  const at = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: APP_URL }]);
  return cookie;
}
