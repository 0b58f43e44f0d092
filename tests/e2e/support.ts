import { SANDBOX_URL } from '../../playwright.config';

export const APP_URL = `http://127.0.0.1:${process.env.E2E_APP_PORT ?? 3510}`;
export const DEMO = { clientId: 'demo-client', clientSecret: 'demo-secret' };

/** Drives the sandbox's switches, as the app's operator never could. */
export async function sandbox(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(SANDBOX_URL + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

type Init = { method?: string; cookie?: string; json?: unknown; headers?: Record<string, string> };

/** A plain HTTP call to the built app, as any client (browser or not) could make it. */
export function api(path: string, init: Init = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  return fetch(APP_URL + path, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : typeof init.json === 'string' ? init.json : JSON.stringify(init.json),
    redirect: 'manual',
  });
}

/** Signs in and returns the `name=value` of the session cookie. */
export async function signIn(credentials = DEMO): Promise<string> {
  const response = await api('/api/session', { method: 'POST', json: credentials, headers: { origin: APP_URL } });
  if (response.status !== 204) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

export type ApiBatch = Record<string, unknown> & { batch_id: string };

/** Walks /api/batches cursor by cursor, as the browser does. */
export async function walkApi(cookie: string, query: Record<string, string> = {}) {
  const all: ApiBatch[] = [];
  let cursor: string | null = null;
  let calls = 0;
  do {
    const params = new URLSearchParams(cursor ? { ...query, cursor } : query);
    const response = await api(`/api/batches?${params}`, { cookie });
    if (response.status !== 200) throw new Error(`page ${calls}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { data: ApiBatch[]; nextCursor: string | null };
    all.push(...body.data);
    cursor = body.nextCursor;
    calls++;
  } while (cursor !== null);
  return { batches: all, calls };
}

/** One line of `/api/batches/stream`. */
export type StreamLine = {
  batches?: ApiBatch[];
  done?: true;
  count?: number;
  error?: { status: number; detail: string };
  remaining?: string;
};

/** The lines of a whole stream body (every line, the last included, ends with a newline). */
export function streamLines(text: string): StreamLine[] {
  if (!text.endsWith('\n')) throw new Error(`the stream ended mid-line: ${JSON.stringify(text.slice(-80))}`);
  return text.trimEnd().split('\n').map((l) => JSON.parse(l) as StreamLine);
}

/** Ids of every batch in these lines, in the order they came. */
export const idsOf = (lines: StreamLine[]) => lines.flatMap((l) => (l.batches ?? []).map((b) => b.batch_id));
