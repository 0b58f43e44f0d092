import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_SESSION_SECRET } from '../../playwright.config';
import { TEST_CREDENTIALS_KEY } from '../helpers/people';
import { SANDBOX_ORGANISATIONS } from '../../scripts/sandbox-people';
import { APP_URL, DEMO, DEMO_ADMIN, api, signIn } from './support';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** What must never reach a browser: the session secret, the key and the organisations' secrets the server holds, a password. */
const SECRETS = [
  E2E_SESSION_SECRET,
  TEST_CREDENTIALS_KEY,
  DEMO.password,
  ...SANDBOX_ORGANISATIONS.map((o) => o.clientSecret),
];
const body = (person: { email: string; password: string }) => ({ email: person.email, password: person.password });

/** The headers that guard a page, with the per-request nonce blanked so two pages can be compared. */
const PAGE_GUARDS = [
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'permissions-policy',
];
const guardsOf = (response: Response) =>
  Object.fromEntries(
    PAGE_GUARDS.map((name) => [name, response.headers.get(name)?.replace(/'nonce-[^']*'/, "'nonce-…'") ?? null]),
  );

test('security headers: CSP without unsafe-eval or inline scripts, no framing, nosniff, referrer policy', async () => {
  const cookie = await signIn();
  // The signed-in page as well as sign-in: each is the page itself (200), not a redirect, and all carry one policy.
  const pages: [string, string?][] = [['/sign-in'], ['/sign-in?next=%2Fbatches'], ['/batches', cookie]];
  const guards: Record<string, string | null>[] = [];
  for (const [path, pageCookie] of pages) {
    const response = await api(path, { cookie: pageCookie });
    expect(response.status, path).toBe(200);
    guards.push(guardsOf(response));
    const csp = response.headers.get('content-security-policy')!;
    expect(csp, path).toBeTruthy();
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!;
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-eval');
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  }
  expect(Object.values(guards[0]!)).not.toContain(null);
  for (const [i, [path]] of pages.entries()) expect(guards[i], path).toEqual(guards[0]);
});

test('the API allows nothing to load or frame from its answers', async () => {
  for (const path of ['/api/session', '/api/batches', '/api/batches/stream']) {
    const response = await api(path);
    expect(response.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  }
});

test('a fresh nonce per request, and the pages run under it without a CSP violation, signed-in batches included', async ({
  page,
  context,
}) => {
  const nonce = async () => (await api('/sign-in')).headers.get('content-security-policy')!.match(/nonce-([^']+)/)![1];
  expect(await nonce()).not.toBe(await nonce());
  // A violation is reported even when the script catches the refusal (zod's probe of `new Function('')` does),
  // so listen for the event itself as well as for the console's error.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

  await page.goto('/sign-in');
  await page.waitForLoadState('networkidle');
  expect(await violations(), '/sign-in').toEqual([]);

  const [name, value] = (await signIn()).split(/=(.*)/s) as [string, string];
  await context.addCookies([{ name, value, url: APP_URL }]);
  await page.goto('/batches?tz=utc');
  await expect(page.getByRole('status').first()).toHaveText(/^[\d,]+ batches$/, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(await violations(), '/batches').toEqual([]);
  expect(errors).toEqual([]);
});

/** The `<script>` tags of a page that do not carry this nonce. */
const scriptsWithout = (html: string, nonce: string) =>
  [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes(`nonce="${nonce}"`));

test('every HTML answer has the nonce CSP, 404 pages near the static paths included, and its scripts the nonce', async () => {
  for (const path of [
    '/no-such-page',
    '/icon.svgx',
    '/icon.svg/x',
    '/_next/staticx',
    '/_next/imagex',
    '/apix',
    '/sign-in',
  ]) {
    const response = await api(path);
    expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce, `${path}: ${csp}`).toBeTruthy();
    expect(csp, path).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html, path).toContain('<script');
    expect(scriptsWithout(html, nonce!), path).toEqual([]);
  }
  // The real static paths still skip the proxy's per-request work and are served as they are.
  const icon = await api('/icon.svg');
  expect([icon.status, icon.headers.get('content-type'), icon.headers.get('content-security-policy')]).toEqual([
    200,
    'image/svg+xml',
    null,
  ]);
  const chunk = (await (await api('/sign-in')).text()).match(/\/_next\/static\/[^"]+\.js/)![0];
  const script = await api(chunk);
  expect([script.status, script.headers.get('content-security-policy')]).toEqual([200, null]);
});

const HSTS = 'max-age=63072000; includeSubDomains';

test('HSTS only when served over https (a TLS-terminating proxy sends X-Forwarded-Proto: https): pages, 404s, redirects, API, static', async () => {
  const chunk = (await api('/sign-in').then((r) => r.text())).match(/\/_next\/static\/[^"]+\.js/)![0];
  for (const path of [
    '/sign-in',
    '/batches',
    '/no-such-page',
    '/api/health',
    '/api/batches',
    '/api/nope',
    '/icon.svg',
    chunk,
  ]) {
    const overHttps = await api(path, { headers: { 'x-forwarded-proto': 'https' } });
    expect(overHttps.headers.get('strict-transport-security'), path).toBe(HSTS);
    const behindTwo = await api(path, { headers: { 'x-forwarded-proto': 'https, http' } });
    expect(behindTwo.headers.get('strict-transport-security'), `${path} behind two proxies`).toBe(HSTS);
    for (const plain of [undefined, 'http']) {
      const response = await api(path, { headers: plain ? { 'x-forwarded-proto': plain } : {} });
      expect(response.headers.get('strict-transport-security'), `${path} over ${plain ?? 'plain http'}`).toBeNull();
    }
  }
});

/** A request with any method (fetch refuses TRACE), as a plain HTTP client sends it. */
function raw(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(APP_URL + path, { method, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

const API_ALLOW: Record<string, string> = {
  '/api/session': 'DELETE, GET, HEAD, OPTIONS, POST',
  '/api/batches': 'GET, HEAD, OPTIONS',
  '/api/batches/stream': 'GET, HEAD, OPTIONS',
  '/api/batches/export': 'GET, HEAD, OPTIONS',
  '/api/health': 'GET, HEAD, OPTIONS',
};

test('methods an API route does not serve (TRACE, PUT, PATCH, ...) are 405 with Allow and a detail; OPTIONS names them', async () => {
  const cookie = await signIn();
  for (const [path, allow] of Object.entries(API_ALLOW)) {
    const refused = ['TRACE', 'PUT', 'PATCH', 'DELETE', 'POST'].filter((m) => !allow.includes(m));
    for (const method of refused) {
      // Signed in and from the app's own origin: the method alone is what is refused.
      const response = await raw(method, path, { cookie, origin: APP_URL });
      expect([method, path, response.status, response.headers.allow]).toEqual([method, path, 405, allow]);
      expect(response.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
      expect(JSON.parse(response.body), `${method} ${path}`).toEqual({
        detail: `method: ${method} is not allowed here; allowed: ${allow}`,
      });
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
    const options = await raw('OPTIONS', path);
    expect([path, options.status, options.headers.allow]).toEqual([path, 204, allow]);
  }
  // TRACE cannot reach a page either: a 405, never Next's 500.
  for (const path of ['/sign-in', '/batches', '/no-such-page', '/icon.svg']) {
    const response = await raw('TRACE', path);
    expect([path, response.status]).toEqual([path, 405]);
    expect(response.headers.allow, path).toBe('GET, HEAD');
  }
  // Answered before Next, with the headers Next would have added.
  const overHttps = await raw('TRACE', '/api/health', { 'x-forwarded-proto': 'https' });
  expect(overHttps.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
  expect(overHttps.headers['x-frame-options']).toBe('DENY');
  expect((await raw('TRACE', '/api/health')).headers['strict-transport-security']).toBeUndefined();
});

test('no configured secret in the client bundle', () => {
  const files = filesUnder(join(process.cwd(), '.next', 'static'));
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) {
    const text = readFileSync(file, 'latin1');
    for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${file}`).toBe(false);
  }
});

test('no secret or token in any HTML, JSON or header the browser receives, the administrators’ pages and answers included', async () => {
  const cookie = await signIn();
  const admin = await signIn(DEMO_ADMIN);
  const responses = await Promise.all([
    api('/batches', { cookie }),
    api('/sign-in'),
    api('/api/session', { cookie }),
    api('/api/batches', { cookie }),
    api('/api/batches?start_date=bad', { cookie }),
    api('/api/session', { method: 'POST', json: { ...body(DEMO), password: 'not the password' } }),
    api('/api/session', { method: 'POST', json: body(DEMO), headers: { origin: APP_URL } }),
    api('/admin/connection', { cookie: admin }),
    api('/admin/people', { cookie: admin }),
    api('/admin/activity', { cookie: admin }),
    api('/account', { cookie: admin }),
    api('/api/admin/connection', { cookie: admin }),
    api('/api/admin/connection/test', { method: 'POST', cookie: admin, headers: { origin: APP_URL } }),
    api('/api/admin/activity?format=csv', { cookie: admin }),
    api('/api/admin/activity', { cookie: admin }),
    api('/api/admin/people', { cookie: admin }),
  ]);
  for (const response of responses) {
    const text = (await response.text()) + JSON.stringify([...response.headers]);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/access_token|Bearer /i);
  }
});
