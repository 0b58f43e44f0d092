import { expect, test, type Page } from '@playwright/test';
import type { StreamLine } from '../../lib/contract';
import type { SavedViewList } from '../../lib/contract/views';
import { StreamLineSchema } from '../../lib/contract/schemas';
import { SANDBOX_URL } from '../../playwright.config';
import { cachedEntries } from '../helpers/range-cache';
import { PEOPLE, type TestPerson } from '../helpers/people';

export { cachedEntries, PEOPLE, type TestPerson };

export const APP_URL = `http://127.0.0.1:${process.env.E2E_APP_PORT ?? 3510}`;
/**
 * People of the sandbox's organisations (tests/helpers/people.ts): each of these is an editor of theirs (all
 * but the people, connection and activity pages); PEOPLE.<org>.<role> has an administrator, an editor and a
 * viewer of every one. `clientId` is the organisation's at the sandbox (for its switches).
 */
export const DEMO = PEOPLE.demo.editor;
export const DEMO_ADMIN = PEOPLE.demo.admin;
export const DEMO_VIEWER = PEOPLE.demo.viewer;
/** The sandbox's smaller, different organisation (isolation). */
export const OTHER = PEOPLE.other.editor;
/** The organisation whose client ID and secret hold every character URL encoding can get wrong. */
export const SPECIAL = PEOPLE.special.editor;
/** The sandbox's organisation of 22 hand-made edge cases. */
export const EDGE = PEOPLE.edge.editor;
/** The sandbox's organisation whose Tomato germination drifts down after its first 100 batches. */
export const DRIFT = PEOPLE.drift.editor;

/** What signing in takes: an e-mail address and a password. */
export type Credentials = Pick<TestPerson, 'email' | 'password'>;

/** Signs in through the form, starting from `path` (sign-in sends the person back there). */
export async function openSignedIn(page: Page, path: string, credentials: Credentials = EDGE) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(withZone(path));
}

/**
 * The page at `path` once the explorer has named its zone in the URL (a missing or old `tz` is replaced) and
 * written in the range a link left out (All time's `from=all&to=now`, or `to=now` after a From), first.
 */
export function withZone(path: string) {
  return (url: URL) => {
    const want = new URL(APP_URL + path);
    const zone = url.searchParams.get('tz') ?? '';
    const given = want.searchParams;
    given.set('tz', given.get('tz') === 'utc' ? 'UTC' : zone);
    if (!given.has('from') || !given.has('to')) {
      const range = new URLSearchParams({ from: given.get('from') ?? 'all', to: given.get('to') ?? 'now' });
      for (const [key, value] of given) if (key !== 'from' && key !== 'to') range.append(key, value);
      want.search = range.toString();
    }
    return zone !== '' && zone !== 'local' && url.href === want.href.replaceAll('%2F', '/');
  };
}

/** The explorer's own status line (the charts add live regions of their own further down). */
export const status = (page: Page) => page.getByRole('status').first();

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

/** Signs in (over the API, as the form does) and returns the `name=value` of the session cookie. */
export async function signIn(credentials: Credentials = DEMO): Promise<string> {
  const { email, password } = credentials;
  const response = await api('/api/session', {
    method: 'POST',
    json: { email, password },
    headers: { origin: APP_URL },
  });
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

/** Any kind of line, its parts by name (for readable assertions on whichever kind a line is). */
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
export type LineView = Partial<UnionToIntersection<StreamLine>>;

/**
 * The lines of a whole stream body, each checked against the wire contract, every batch field by field (every
 * line, the last included, ends with a newline): a line of another shape fails the test.
 */
export function streamLines(text: string): LineView[] {
  if (!text.endsWith('\n')) throw new Error(`the stream ended mid-line: ${JSON.stringify(text.slice(-80))}`);
  return text
    .trimEnd()
    .split('\n')
    .map((l) => StreamLineSchema.parse(JSON.parse(l)) as LineView);
}

/** Ids of every batch in these lines, in the order they came. */
export const idsOf = (lines: LineView[]) => lines.flatMap((l) => (l.batches ?? []).map((b) => b.batch_id));

/**
 * For a spec about the whole range: a session, and the id of every batch as the cursor walk gives them
 * (the reference), taken once on a reset sandbox; the sandbox is reset before each test.
 */
export function wholeRangeFixture() {
  const fixture = { cookie: '', everything: [] as string[] };
  test.beforeAll(async () => {
    await sandbox('POST', '/_sandbox/reset');
    fixture.cookie = await signIn();
    fixture.everything = (await walkApi(fixture.cookie)).batches.map((b) => b.batch_id).sort();
  });
  test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));
  return fixture;
}

/**
 * Where a page answer sends the person to sign in, or null: the proxy's 307 (no session cookie at all), or the
 * page's own redirect, which follows its loading state in the stream (a 200 whose head refreshes to sign-in).
 */
export async function signInRedirectOf(response: Response): Promise<string | null> {
  if (response.status === 307) {
    await response.body?.cancel();
    const url = new URL(response.headers.get('location') ?? '', APP_URL);
    return url.pathname === '/sign-in' ? url.pathname + url.search : null;
  }
  if (response.status !== 200) return null;
  const refresh = /<meta id="__next-page-redirect" http-equiv="refresh" content="\d+;url=(\/sign-in[^"]*)"/.exec(
    await response.text(),
  );
  return refresh ? refresh[1]!.replaceAll('&amp;', '&') : null;
}

/**
 * Downloads one of the Export menu's files (the menu's and the item's names in the page's language) and returns
 * its name and bytes.
 */
export async function exportFrom(page: Page, item: string, menu = 'Export'): Promise<{ name: string; bytes: Buffer }> {
  await page.getByRole('button', { name: menu, exact: true }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: item, exact: true }).click(),
  ]);
  const chunks = await (await download.createReadStream()).toArray();
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

/**
 * Empties the browser's cache of ranges once the range just loaded is in it (so no write is still to come): the
 * next load of the page is a cold one, from the service.
 */
export async function forgetCachedRanges(page: Page) {
  await expect.poll(async () => (await cachedEntries(page)).length).toBeGreaterThan(0);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const request = indexedDB.deleteDatabase('tsb-range-cache');
        request.onsuccess = request.onerror = () => resolve();
      }),
  );
}

/** `text` matched literally inside a RegExp (names such as "Greenfield Seeds (demo) Editor"). */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Text formatted with Intl here as a pattern that also matches the browser's own ICU: releases differ in the
 * spaces around a range's dash ("21–27 Nov" or "21 – 27 Nov") and in which space they use.
 */
export const browserPattern = (text: string) =>
  escapeRegExp(text)
    .replace(/\s*([–-])\s*/g, '\\s*$1\\s*')
    .replace(/\s+/g, '\\s+');
/** `text` as the whole of an element's text, as the browser may space it (see browserPattern). */
export const asBrowserShows = (text: string) => new RegExp(`^${browserPattern(text)}$`);

/** Every view of the demo organisation goes: the app outlives a spec file, and a default view changes what /batches opens. */
export async function deleteAllViews() {
  const cookie = await signIn();
  const { views } = (await (await api('/api/settings/views', { cookie })).json()) as SavedViewList;
  for (const view of views) {
    const response = await api(`/api/settings/views/${view.id}`, {
      method: 'DELETE',
      cookie,
      headers: { origin: APP_URL },
    });
    expect(response.status).toBe(204);
  }
}
