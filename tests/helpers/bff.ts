import { beforeAll } from 'vitest';
import type { SandboxOptions } from '../../sandbox/config';
import type { Organisation } from '../../sandbox/organisations';
import { sandboxForFile } from './sandbox';

export const APP = 'http://app.test';
export const DEMO = { clientId: 'demo-client', clientSecret: 'demo-secret' };
const TEST_SESSION_SECRET = 'vitest-session-secret-0123456789-abcdefgh';

/**
 * The BFF's route handlers in this test process, on a sandbox of their own: the configuration comes from the
 * environment exactly as in `next start` (read once, at the first request of this file).
 */
export function bffForFile(env: Record<string, string> = {}, options: SandboxOptions = {}, extra: Organisation[] = []) {
  return bffBeside(sandboxForFile(options, extra), env);
}

/** The BFF's route handlers in this test process, on `sandbox` (one of this file's, in this process or not). */
export function bffBeside<S extends { url: string }>(sandbox: () => S, env: Record<string, string> = {}): () => S {
  beforeAll(() => {
    Object.assign(process.env, { BATCH_API_BASE_URL: sandbox().url, SESSION_SECRET: TEST_SESSION_SECRET, ...env });
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
  const body = init.json === undefined ? undefined : typeof init.json === 'string' ? init.json : JSON.stringify(init.json);
  return new Request(APP + path, { method, headers, body });
}

/** `name=value` of the session cookie an answer sets. */
export const sessionCookieOf = (response: Response) =>
  response.headers.getSetCookie().find((c) => c.startsWith('tsb_session='))?.split(';')[0];

export const detailOf = async (response: Response) => ((await response.json()) as { detail: string }).detail;
