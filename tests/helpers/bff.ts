import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import * as session from '@/app/api/session/route';
import type { SandboxOptions } from '../../sandbox/config';
import type { Organisation } from '../../sandbox/organisations';
import { PEOPLE, TEST_CREDENTIALS_KEY, TEST_PROVISIONING, type TestPerson } from './people';
import { sandboxForFile } from './sandbox';

export const APP = 'http://app.test';
/** What a sign-in posts: a person's e-mail and password. */
export const signInBody = ({ email, password }: Pick<TestPerson, 'email' | 'password'>) => ({ email, password });
/** An editor of the sandbox's demo organisation (tests/helpers/people.ts has every role of every organisation). */
export const DEMO = signInBody(PEOPLE.demo.editor);
export { PEOPLE };
const TEST_SESSION_SECRET = 'vitest-session-secret-0123456789-abcdefgh';

/**
 * The BFF's route handlers in this test process, on a sandbox of their own and an embedded database of their
 * own (the sandbox's organisations and a person of each role provisioned, removed after the file): the
 * configuration comes from the environment exactly as in `next start` (read once, at the first request of
 * this file).
 */
export function bffForFile(env: Record<string, string> = {}, options: SandboxOptions = {}, extra: Organisation[] = []) {
  return bffBeside(sandboxForFile(options, extra), env);
}

/** The BFF's route handlers in this test process, on `sandbox` (one of this file's, in this process or not). */
export function bffBeside<S extends { url: string }>(sandbox: () => S, env: Record<string, string> = {}): () => S {
  const dir = mkdtempSync(join(tmpdir(), 'tsb-bff-'));
  beforeAll(async () => {
    const provisioning = join(dir, 'provisioning.json');
    writeFileSync(provisioning, JSON.stringify(TEST_PROVISIONING));
    Object.assign(process.env, {
      BATCH_API_BASE_URL: sandbox().url,
      SESSION_SECRET: TEST_SESSION_SECRET,
      SETTINGS_DATA_DIR: join(dir, 'db'),
      PROVISIONING_FILE: provisioning,
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      ...env,
    });
    // The embedded database's first start and the provisioning in the hook, not in the first test's time.
    const [{ settingsStore }, { whenProvisioned }] = await Promise.all([
      import('@/lib/server/settings'),
      import('@/lib/server/org/provisioning'),
    ]);
    await settingsStore().warm();
    await whenProvisioned();
  });
  afterAll(async () => {
    const { settingsStore } = await import('@/lib/server/settings');
    await settingsStore().close();
    rmSync(dir, { recursive: true, force: true });
  });
  return sandbox;
}

type Init = { method?: string; cookie?: string; json?: unknown; headers?: Record<string, string> };

/** A Request as a browser on the app's own origin would send it. */
export function request(path: string, init: Init = {}): Request {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.json !== undefined) headers['content-type'] ??= 'application/json';
  const method = init.method ?? 'GET';
  if (method !== 'GET') headers.origin ??= APP;
  const body =
    init.json === undefined ? undefined : typeof init.json === 'string' ? init.json : JSON.stringify(init.json);
  return new Request(APP + path, { method, headers, body });
}

/** `name=value` of the session cookie an answer sets. */
export const sessionCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith('tsb_session='))
    ?.split(';')[0];

export const detailOf = async (response: Response) => ((await response.json()) as { detail: string }).detail;

export type Handler = (request: Request) => Promise<Response>;
/** A route handler called as the browser holding the session `cookie` would call it. */
export const call = (handler: Handler, path: string, cookie: string, method = 'GET', json?: unknown) =>
  handler(request(path, { method, cookie, json }));
export const json = async <T>(response: Response) => (await response.json()) as T;

/** Signs `person` in through the session route (which must accept them) and answers their session cookie. */
export async function signIn(person: { email: string; password: string }): Promise<string> {
  const response = await session.POST(request('/api/session', { method: 'POST', json: signInBody(person) }));
  expect(response.status).toBe(204);
  return sessionCookieOf(response)!;
}
