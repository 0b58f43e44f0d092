import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as oidcCallback from '@/app/api/auth/oidc/callback/route';
import * as oidcStart from '@/app/api/auth/oidc/start/route';
import * as exported from '@/app/api/batches/export/route';
import * as batches from '@/app/api/batches/route';
import * as stream from '@/app/api/batches/stream/route';
import * as live from '@/app/api/health/live/route';
import * as ready from '@/app/api/health/ready/route';
import * as health from '@/app/api/health/route';
import * as cacheKey from '@/app/api/session/cache-key/route';
import * as session from '@/app/api/session/route';
import * as targets from '@/app/api/settings/targets/route';
import * as viewById from '@/app/api/settings/views/[id]/route';
import * as viewSchedule from '@/app/api/settings/views/[id]/schedule/route';
import * as views from '@/app/api/settings/views/route';
import * as targetHistory from '@/app/api/settings/targets/history/route';
import * as targetRestore from '@/app/api/settings/targets/history/[id]/restore/route';
import * as adminPeople from '@/app/api/admin/people/route';
import * as adminPerson from '@/app/api/admin/people/[id]/route';
import * as adminPersonSessions from '@/app/api/admin/people/[id]/sessions/route';
import * as adminPersonReset from '@/app/api/admin/people/[id]/reset/route';
import * as connection from '@/app/api/admin/connection/route';
import * as connectionTest from '@/app/api/admin/connection/test/route';
import * as activity from '@/app/api/admin/activity/route';
import * as account from '@/app/api/account/route';
import * as accountSessions from '@/app/api/account/sessions/route';
import * as accountSession from '@/app/api/account/sessions/[id]/route';
import * as link from '@/app/api/links/[token]/route';
import * as people from '@/app/api/people/route';
import * as alerts from '@/app/api/alerts/route';
import * as alertById from '@/app/api/alerts/[id]/route';
import * as alertSubscription from '@/app/api/alerts/[id]/subscription/route';
import * as alertHistory from '@/app/api/alerts/history/route';
import * as alertHistoryRead from '@/app/api/alerts/history/read/route';
import * as alertUnsubscribe from '@/app/api/alerts/unsubscribe/route';
import { type StreamLine } from '@/lib/contract';
import { StreamLineSchema } from '@/lib/contract/schemas';
import { APP, bffForFile, DEMO, detailOf, PEOPLE, request, sessionCookieOf } from '../helpers/bff';
import { logsOf } from '../helpers/logs';
import { control, tokenFor, walkV2 } from '../helpers/sandbox';

// Short limits, as an operator could set them: the clock of the idle and lifetime tests is faked below.
// Every test signs in from the same (unknown) address: the sign-in throttle is tested on its own.
const sandbox = bffForFile(
  { SESSION_IDLE_S: '2', SESSION_TTL_S: '5', BATCH_API_TIMEOUT_MS: '3000', SIGNIN_ATTEMPTS_PER_IP: '100000' },
  { batches: 700 },
);
const stats = () => control(sandbox(), 'GET', '/_sandbox/stats');

// A session of its own per test: sessions here end after 2 s of quiet.
let cookie: string;
beforeEach(async () => {
  cookie = await signIn();
});
afterEach(() => vi.useRealTimers());

async function signIn(): Promise<string> {
  const response = await session.POST(request('/api/session', { method: 'POST', json: DEMO }));
  expect(response.status).toBe(204);
  return sessionCookieOf(response)!;
}

/**
 * Runs `work` with the server's timers on a fake clock (retry waits, the upstream timeout): it moves on in
 * 50 ms steps, letting real I/O happen between them, until `work` is done.
 */
async function onFakeClock<T>(work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let done = false;
  const result = work().finally(() => (done = true));
  for (let step = 0; !done && step < 2000; step++) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(50);
  }
  vi.useRealTimers();
  return result;
}

const lines = async (response: Response): Promise<StreamLine[]> => {
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text.endsWith('\n')).toBe(true);
  // Every line the server writes is a line of the contract, every batch checked field by field.
  return text
    .trimEnd()
    .split('\n')
    .map((l) => StreamLineSchema.parse(JSON.parse(l)));
};

describe('route(): session, origin, query and body', () => {
  it('refuses a request without a session with 401 and a detail naming the session', async () => {
    const response = await batches.GET(request('/api/batches'));
    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await detailOf(response)).toBe('session: not signed in');
  });

  it('signs in, tells who is signed in with their organisation and role (never a secret), and signs out for good', async () => {
    const mine = await signIn();
    const me = await session.GET(request('/api/session', { cookie: mine }));
    expect(me.status).toBe(200);
    const organisation = { id: expect.any(String), slug: 'demo', name: 'Greenfield Seeds (demo)' };
    expect(await me.json()).toEqual({
      user: { email: PEOPLE.demo.editor.email, name: PEOPLE.demo.editor.name },
      organisation,
      role: 'editor',
      organisations: [{ ...organisation, role: 'editor' }],
    });
    const out = await session.DELETE(request('/api/session', { method: 'DELETE', cookie: mine }));
    expect(out.status).toBe(204);
    expect(sessionCookieOf(out)).toBe('tsb_session=');
    const after = await session.GET(request('/api/session', { cookie: mine }));
    expect([after.status, await detailOf(after)]).toEqual([401, 'session: signed out; sign in again']);
  });

  it("gives the browser's range cache a key for this session only (never stored), and none once signed out", async () => {
    const keyOf = async (c: string) => {
      const response = await cacheKey.GET(request('/api/session/cache-key', { cookie: c }));
      return {
        status: response.status,
        cacheControl: response.headers.get('cache-control'),
        body: await response.json(),
      };
    };
    const mine = await keyOf(cookie);
    expect([mine.status, mine.cacheControl]).toEqual([200, 'no-store, private']);
    expect(Object.keys(mine.body).sort()).toEqual(['key', 'keyId', 'scope']);
    expect(await keyOf(cookie)).toEqual(mine);
    const next = await keyOf(await signIn());
    expect(next.body.key).not.toBe(mine.body.key);
    expect(next.body.scope).toBe(mine.body.scope);
    await session.DELETE(request('/api/session', { method: 'DELETE', cookie }));
    const after = await keyOf(cookie);
    expect([after.status, after.body.detail]).toEqual([401, 'session: signed out; sign in again']);
    const none = await cacheKey.GET(request('/api/session/cache-key'));
    expect(none.status).toBe(401);
  });

  it('a wrong password and an unknown e-mail address are the same 401, and set no cookie', async () => {
    for (const json of [
      { ...DEMO, password: 'not the password' },
      { email: 'nobody@demo.example', password: DEMO.password },
    ]) {
      const response = await session.POST(request('/api/session', { method: 'POST', json }));
      expect([response.status, await detailOf(response)]).toEqual([401, 'email: the e-mail or password is not right']);
      expect(sessionCookieOf(response)).toBeUndefined();
    }
  });

  it('the organisations’ client credentials no longer sign anyone in', async () => {
    const response = await session.POST(
      request('/api/session', { method: 'POST', json: { clientId: 'demo-client', clientSecret: 'demo-secret' } }),
    );
    expect([response.status, await detailOf(response)]).toEqual([
      422,
      'email: the e-mail address is missing or not text; enter your e-mail address',
    ]);
  });

  it.each([
    [{ origin: 'https://evil.example' }, 'origin: https://evil.example may not change this session'],
    [{ 'sec-fetch-site': 'cross-site', origin: '' }, 'origin: a cross-site request may not change this session'],
  ])('refuses a state change from another site: %j', async (headers, detail) => {
    const init = {
      method: 'POST',
      json: DEMO,
      headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v)),
    };
    const built = request('/api/session', init);
    if (!headers.origin) built.headers.delete('origin');
    const response = await session.POST(built);
    expect([response.status, await detailOf(response)]).toEqual([403, detail]);
  });

  it.each([
    [
      'content-type',
      { method: 'POST', json: JSON.stringify(DEMO), headers: { 'content-type': 'text/plain' } },
      415,
      'body: must be application/json',
    ],
    ['not JSON', { method: 'POST', json: '{"email":' }, 422, 'body: not valid JSON'],
    [
      'a wrong type',
      { method: 'POST', json: { email: 5, password: 'x' } },
      422,
      'email: the e-mail address is missing or not text; enter your e-mail address',
    ],
    [
      'an empty password',
      { method: 'POST', json: { email: 'x', password: '' } },
      422,
      'password: the password is empty; enter your password',
    ],
    ['an unknown key', { method: 'POST', json: { ...DEMO, admin: true } }, 422, 'admin: unknown parameter'],
    [
      'too large',
      { method: 'POST', json: { email: 'x'.repeat(9000), password: 'y' } },
      413,
      'body: larger than 8192 bytes',
    ],
  ])('refuses a sign-in body with %s', async (_what, init, status, detail) => {
    const response = await session.POST(request('/api/session', init));
    expect([response.status, await detailOf(response)]).toEqual([status, detail]);
  });

  it.each([
    ['a day without a time', 'start_date=2025-03-01', /^start_date: "2025-03-01" must be an ISO 8601 UTC datetime/],
    ['no timezone', 'end_date=2025-03-01T00:00:00', /^end_date: .* has no timezone/],
    ['another offset', 'start_date=2025-03-01T00:00:00%2B02:00', /^start_date: .* is not UTC/],
    ['February 30', 'end_date=2025-02-30T00:00:00Z', /^end_date: .* is not a real calendar date/],
    ['a repeated parameter', 'start_date=a&start_date=b', /^start_date: given more than once$/],
    ['an unknown parameter', 'limit=5', /^limit: unknown parameter$/],
    ['a 5,000-character cursor', `cursor=${'x'.repeat(5000)}`, /^cursor: at most 4096 characters$/],
  ])('422 for %s, before any upstream call', async (_what, query, detail) => {
    await control(sandbox(), 'POST', '/_sandbox/reset');
    const response = await batches.GET(request(`/api/batches?${query}`, { cookie }));
    expect(response.status).toBe(422);
    expect(await detailOf(response)).toMatch(detail);
    expect((await stats()).batchRequests).toBe(0);
  });

  it('an empty parameter counts as absent', async () => {
    const response = await batches.GET(request('/api/batches?start_date=&end_date=', { cookie }));
    expect(response.status).toBe(200);
  });

  /** Every method every route of app/api serves, with what a good request would send it. */
  const served: [string, string, (r: Request) => Promise<Response>, unknown?][] = [
    ['GET', '/api/batches', batches.GET],
    ['GET', '/api/batches/stream', stream.GET],
    ['HEAD', '/api/batches/stream', stream.HEAD],
    ['GET', '/api/batches/export', exported.GET],
    ['HEAD', '/api/batches/export', exported.HEAD],
    ['GET', '/api/health', health.GET],
    ['GET', '/api/session', session.GET],
    ['POST', '/api/session', session.POST, DEMO],
    ['DELETE', '/api/session', session.DELETE],
    ['GET', '/api/session/cache-key', cacheKey.GET],
    ['HEAD', '/api/session/cache-key', cacheKey.HEAD],
    ['GET', '/api/settings/targets', targets.GET],
    [
      'PUT',
      '/api/settings/targets',
      targets.PUT,
      { targets: { general: { germination: 90, usable: null, cv: null } } },
    ],
    ['GET', '/api/settings/views', views.GET],
    ['POST', '/api/settings/views', views.POST, { name: 'never saved', query: '' }],
    ['PATCH', '/api/settings/views/0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f', viewById.PATCH, { isDefault: true }],
    ['DELETE', '/api/settings/views/0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f', viewById.DELETE],
  ];

  it.each(served)(
    '%s %s: an unknown parameter is 422 naming it (__proto__, an empty callback=, a NUL in the name), before any work',
    async (method, path, handle, json) => {
      for (const [query, field] of [
        ['__proto__=1', '__proto__'],
        ['callback=', 'callback'],
        ['x%00=1', 'x\\u0000'],
      ] as const) {
        await control(sandbox(), 'POST', '/_sandbox/reset');
        const response = await handle(request(`${path}?${query}`, { method, cookie, json }));
        expect(response.status, `${method} ${path}?${query}`).toBe(422);
        if (method !== 'HEAD') expect(await detailOf(response)).toBe(`${field}: unknown parameter`);
        expect((await stats()).batchRequests).toBe(0);
      }
    },
  );

  it('reads the query as the client sent it, where Next.js would have dropped `__proto__` from the URL', async () => {
    const dropped = request('/api/session/cache-key', { cookie, headers: { 'x-tsb-raw-query': '__proto__=1' } });
    const response = await cacheKey.GET(dropped);
    expect([response.status, await detailOf(response)]).toEqual([422, '__proto__: unknown parameter']);
    const plain = await batches.GET(
      request('/api/batches', { cookie, headers: { 'x-tsb-raw-query': 'start_date=&end_date=' } }),
    );
    expect(plain.status).toBe(200);
  });
});

describe('requests that would make the server work for nothing', () => {
  const T = '2025-03-01T00:00:00Z';

  it.each([
    ['empty parts', `parts=${encodeURIComponent(`${T}~2025-03-02T00:00:00Z,,`)}`],
    ['a zero-width part', `parts=${encodeURIComponent(`${T}~${T}`)}`],
    ['128 copies of a zero-width part', `parts=${encodeURIComponent(Array(128).fill(`${T}~${T}`).join(','))}`],
    ['a part given twice', `parts=${encodeURIComponent(`${T}~2025-03-02T00:00:00Z,${T}~2025-03-02T00:00:00Z`)}`],
    [
      'parts over their length limit',
      `parts=${encodeURIComponent(Array(400).fill(`${T}~2025-03-02T00:00:00Z`).join(','))}`,
    ],
  ])('%s: 422 naming parts, before any upstream call', async (_what, query) => {
    await control(sandbox(), 'POST', '/_sandbox/reset');
    const response = await stream.GET(request(`/api/batches/stream?${query}`, { cookie }));
    expect(response.status).toBe(422);
    expect(await detailOf(response)).toMatch(/^parts: /);
    expect((await stats()).batchRequests).toBe(0);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])(
    'a parameter named %s is unknown (422), never a 5xx',
    async (name) => {
      for (const handler of [batches.GET, stream.GET]) {
        const response = await handler(request(`/api/batches?${name}=x`, { cookie }));
        expect(response.status).toBe(422);
        expect(await detailOf(response)).toBe(`${name}: unknown parameter`);
      }
    },
  );
});

describe('the batch routes against the sandbox', () => {
  it('one upstream page per call, exactly as the service sent it; a cursor the service refuses is 422 naming cursor', async () => {
    const token = await tokenFor(sandbox());
    const reference = await walkV2(sandbox(), token);
    const first = await batches.GET(request('/api/batches', { cookie }));
    const body = (await first.json()) as { data: { batch_id: string }[]; nextCursor: string };
    expect(body.data.map((b) => b.batch_id)).toEqual(reference.batches.slice(0, 100).map((b) => b.batch_id));
    const refused = await batches.GET(request('/api/batches?cursor=forged', { cookie }));
    expect(refused.status).toBe(422);
    expect(await detailOf(refused)).toBe('cursor: not a valid cursor for this client');
  });

  it('a service still down after the retries: 503 with the Retry-After number of the error', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { outage: true, retryAfterS: 0 });
    const response = await batches.GET(request('/api/batches', { cookie }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await detailOf(response)).toMatch(/^Batch Data Service unavailable: /);
  });

  it.each([
    ['malformed-json', 502, /^Batch Data Service answered something unexpected: body: /],
    ['500', 502, /answered 500/],
    ['hang', 504, /^Batch Data Service timed out: /],
  ])('an upstream %s is %i', async (kind, status, detail) => {
    await control(sandbox(), 'POST', '/_sandbox/inject', { kind });
    const response = await onFakeClock(() => batches.GET(request('/api/batches', { cookie })));
    expect(response.status).toBe(status);
    expect(await detailOf(response)).toMatch(detail);
  });

  it('the stream: every batch once, in contract lines, ending with done', async () => {
    const all = await lines(await stream.GET(request('/api/batches/stream', { cookie })));
    const ids = all.flatMap((l) => ('batches' in l ? l.batches.map((b) => b.batch_id) : []));
    expect(new Set(ids).size).toBe(700);
    expect(ids).toHaveLength(700);
    expect(all.at(-1)).toEqual({ done: true, count: 700 });
  });

  it('a failure mid-stream ends with an error line whose remaining parts complete the range', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 30 });
    const started = stream.GET(request('/api/batches/stream', { cookie }));
    const response = await started;
    await control(sandbox(), 'POST', '/_sandbox/inject', { kind: '500', count: 1 });
    const first = await lines(response);
    const end = first.at(-1)!;
    expect('error' in end && end.error).toMatchObject({ status: 502, retryAfterS: null });
    expect('remaining' in end && end.remaining).toMatch(/~/);
    const remaining = (end as { remaining: string }).remaining;
    const rest = await lines(
      await stream.GET(request(`/api/batches/stream?parts=${encodeURIComponent(remaining)}`, { cookie })),
    );
    const ids = new Set([...first, ...rest].flatMap((l) => ('batches' in l ? l.batches.map((b) => b.batch_id) : [])));
    expect(ids.size).toBe(700);
    expect(rest.at(-1)).toMatchObject({ done: true });
  });
});

describe('what the browser is told about a real deployment’s answers', () => {
  /** The JSON lines the server logged while `work` ran. */
  const logged = logsOf;

  it('a crashed framework’s text/plain 500 never reaches the browser: our own sentence there, the raw text in the log', async () => {
    await control(sandbox(), 'POST', '/_sandbox/inject', { kind: 'crash-500' });
    let detail = '';
    const lines = await logged(async () => {
      const response = await batches.GET(request('/api/batches', { cookie }));
      expect(response.status).toBe(502);
      detail = await detailOf(response);
    });
    expect(detail).toBe('Batch Data Service answered 500, an error of its own');
    const raw = lines.find((l) => l.msg === 'upstream answered something that is not JSON');
    expect(raw).toMatchObject({ level: 'warn', status: 500, path: '/v2/batches' });
    expect(String(raw!.body)).toContain('Traceback (most recent call last)');
  });

  it.each(['gateway-502', 'gateway-504'])(
    'a gateway’s HTML pages (%s), still there after the retries, are told in our words only',
    async (kind) => {
      await control(sandbox(), 'POST', '/_sandbox/inject', { kind, count: 20 });
      const response = await onFakeClock(() => batches.GET(request('/api/batches', { cookie })));
      expect(response.status).toBe(503);
      const detail = await detailOf(response);
      expect(detail).toBe(
        'Batch Data Service unavailable: a gateway in front of it got no answer from it; try again shortly',
      );
      for (const leak of ['<', 'nginx', 'Bad Gateway', 'Time-out', '/v2/']) expect(detail).not.toContain(leak);
    },
  );

  it('a list-shaped validation detail becomes one sentence naming the field', async () => {
    await control(sandbox(), 'POST', '/_sandbox/inject', { kind: 'validation-list' });
    const response = await batches.GET(request('/api/batches', { cookie }));
    expect([response.status, await detailOf(response)]).toEqual([422, 'start_date: Input should be a valid datetime']);
  });

  it('a fresh token refused at once is a 502 that does not send the person to sign in again', async () => {
    await control(sandbox(), 'POST', '/_sandbox/inject', { kind: 'token-refused', count: 5 });
    const response = await batches.GET(request('/api/batches', { cookie }));
    expect([response.status, await detailOf(response)]).toEqual([
      502,
      'the Batch Data Service refused an access token it had just issued; try again shortly',
    ]);
  });
});

describe('session limits through the route, on a fake clock (SESSION_IDLE_S=2, SESSION_TTL_S=5)', () => {
  /** Calls /api/session and follows the cookie the server re-seals (as a browser would). */
  async function whoAmI(current: string) {
    const response = await session.GET(request('/api/session', { cookie: current }));
    const body = (await response.json()) as { detail?: string };
    return { status: response.status, detail: body.detail, cookie: sessionCookieOf(response) ?? current };
  }

  it('the idle timeout ends a quiet session, and activity slides it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let active = await signIn();
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(800);
      const me = await whoAmI(active);
      expect(me.status).toBe(200);
      active = me.cookie;
    }
    const quiet = await signIn();
    vi.advanceTimersByTime(2200);
    expect(await whoAmI(quiet)).toMatchObject({
      status: 401,
      detail: 'session: ended after inactivity; sign in again',
    });
  });

  it('the absolute lifetime ends a session however active it is', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let current = await signIn();
    const started = Date.now();
    let last = await whoAmI(current);
    while (Date.now() - started < 5500) {
      vi.advanceTimersByTime(700);
      last = await whoAmI(current);
      current = last.cookie;
      if (last.status === 401) break;
    }
    expect(last).toMatchObject({ status: 401, detail: 'session: expired; sign in again' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
  });
});

type Handler = (request: Request) => Promise<Response>;
const handlerOf = (module: object, method: string) => (module as Record<string, Handler | undefined>)[method];

/** The request lines the wrapper writes to stdout while `work` runs. */
async function requestLogs(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines = await logsOf(async () => {
    await work();
    await new Promise((r) => setTimeout(r, 50));
  });
  return lines.filter((l) => l.msg === 'request');
}

describe('methods: what a route does not serve is 405 with Allow, HEAD does no upstream work', () => {
  const ROUTES: [string, object, string][] = [
    ['/api/session', session, 'DELETE, GET, HEAD, OPTIONS, POST'],
    ['/api/session/cache-key', cacheKey, 'GET, HEAD, OPTIONS'],
    ['/api/batches', batches, 'GET, HEAD, OPTIONS'],
    ['/api/batches/stream', stream, 'GET, HEAD, OPTIONS'],
    ['/api/batches/export', exported, 'GET, HEAD, OPTIONS'],
    ['/api/health', health, 'GET, HEAD, OPTIONS'],
    ['/api/health/live', live, 'GET, HEAD, OPTIONS'],
    ['/api/health/ready', ready, 'GET, HEAD, OPTIONS'],
    ['/api/settings/targets', targets, 'GET, HEAD, OPTIONS, PUT'],
    ['/api/settings/views', views, 'GET, HEAD, OPTIONS, POST'],
    ['/api/settings/views/[id]', viewById, 'DELETE, OPTIONS, PATCH'],
    ['/api/settings/views/[id]/schedule', viewSchedule, 'DELETE, GET, HEAD, OPTIONS, PUT'],
    ['/api/auth/oidc/start', oidcStart, 'GET, HEAD, OPTIONS'],
    ['/api/auth/oidc/callback', oidcCallback, 'GET, HEAD, OPTIONS'],
    ['/api/settings/targets/history', targetHistory, 'GET, HEAD, OPTIONS'],
    ['/api/settings/targets/history/[id]/restore', targetRestore, 'OPTIONS, POST'],
    ['/api/admin/people', adminPeople, 'GET, HEAD, OPTIONS, POST'],
    ['/api/admin/people/[id]', adminPerson, 'DELETE, OPTIONS, PATCH'],
    ['/api/admin/people/[id]/sessions', adminPersonSessions, 'DELETE, OPTIONS'],
    ['/api/admin/people/[id]/reset', adminPersonReset, 'OPTIONS, POST'],
    ['/api/admin/connection', connection, 'GET, HEAD, OPTIONS, PUT'],
    ['/api/admin/connection/test', connectionTest, 'OPTIONS, POST'],
    ['/api/admin/activity', activity, 'GET, HEAD, OPTIONS'],
    ['/api/account', account, 'GET, HEAD, OPTIONS, PATCH'],
    ['/api/account/sessions', accountSessions, 'DELETE, GET, HEAD, OPTIONS'],
    ['/api/account/sessions/[id]', accountSession, 'DELETE, OPTIONS'],
    ['/api/links/[token]', link, 'GET, HEAD, OPTIONS, POST'],
    ['/api/people', people, 'GET, HEAD, OPTIONS'],
    ['/api/alerts', alerts, 'GET, HEAD, OPTIONS, POST'],
    ['/api/alerts/[id]', alertById, 'DELETE, GET, HEAD, OPTIONS, PATCH'],
    ['/api/alerts/[id]/subscription', alertSubscription, 'OPTIONS, PUT'],
    ['/api/alerts/history', alertHistory, 'GET, HEAD, OPTIONS'],
    ['/api/alerts/history/read', alertHistoryRead, 'OPTIONS, POST'],
    ['/api/alerts/unsubscribe', alertUnsubscribe, 'GET, HEAD, OPTIONS, POST'],
  ];

  it.each(ROUTES)(
    '%s: PUT, PATCH and the rest it does not serve are 405 with Allow and a detail, even signed in and same-origin',
    async (path, module, allow) => {
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'].filter((m) => !allow.split(', ').includes(m))) {
        const handler = handlerOf(module, method);
        expect(handler, `${method} ${path} is exported`).toBeTypeOf('function');
        // A foreign origin too: the method is wrong whoever asks, so it is refused before the origin check.
        for (const origin of [APP, 'https://evil.example']) {
          const response = await handler!(request(path, { method, cookie, headers: { origin } }));
          expect([
            method,
            response.status,
            response.headers.get('allow'),
            response.headers.get('cache-control'),
          ]).toEqual([method, 405, allow, 'no-store']);
          expect(await detailOf(response)).toBe(`method: ${method} is not allowed here; allowed: ${allow}`);
        }
      }
      const options = await handlerOf(module, 'OPTIONS')!(request(path, { method: 'OPTIONS' }));
      expect([options.status, options.headers.get('allow')]).toEqual([204, allow]);
    },
  );

  it('every API route is in that list, and the answer to TRACE (before Next) names the same methods as the route', async () => {
    const { allowedAt } = await import('@/lib/server/http/unroutable-methods');
    const files = readdirSync('app/api', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('route.ts'));
    const paths = files.map((f) => `/api/${f.replace(/\/?route\.ts$/, '')}`.replace(/\/$/, '')).sort();
    expect(paths).toEqual(ROUTES.map(([p]) => p).sort());
    for (const [path, module, allow] of ROUTES) {
      const options = await handlerOf(module, 'OPTIONS')!(request(path, { method: 'OPTIONS' }));
      expect([path, allowedAt(path), allowedAt(`${path}/`)]).toEqual([path, options.headers.get('allow'), allow]);
    }
    expect(allowedAt('/api/settings/views/0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f')).toBe('DELETE, OPTIONS, PATCH');
    expect(allowedAt('/sign-in')).toBe('GET, HEAD');
  });

  it('HEAD on the stream and the export: the checks and headers of GET, no body, and not one upstream request', async () => {
    const before = await stats();
    const head = (module: object, path: string, withCookie = true) =>
      handlerOf(module, 'HEAD')!(request(path, { method: 'HEAD', cookie: withCookie ? cookie : undefined }));
    const logs = await requestLogs(async () => {
      const lines = await head(stream, '/api/batches/stream');
      expect([
        lines.status,
        lines.headers.get('content-type'),
        lines.headers.get('cache-control'),
        lines.headers.get('x-accel-buffering'),
        lines.body,
      ]).toEqual([200, 'text/x-ndjson; charset=utf-8', 'no-store', 'no', null]);
      const csv = await head(exported, '/api/batches/export?end_date=2025-03-01T00:00:00Z');
      expect([csv.status, csv.headers.get('content-type'), csv.headers.get('content-disposition'), csv.body]).toEqual([
        200,
        'text/csv; charset=utf-8',
        'attachment; filename="Greenfield-Seeds-demo-batches-until-2025-03-01-api-fields.csv"',
        null,
      ]);
      expect((await head(stream, '/api/batches/stream?parts=nonsense')).status).toBe(422);
      expect((await head(exported, '/api/batches/export', false)).status).toBe(401);
    });
    expect(await stats()).toEqual(before);
    expect(logs.map((l) => [l.method, l.path, l.status, l.upstreamCalls])).toEqual([
      ['HEAD', '/api/batches/stream', 200, 0],
      ['HEAD', '/api/batches/export', 200, 0],
      ['HEAD', '/api/batches/stream', 422, 0],
      ['HEAD', '/api/batches/export', 401, 0],
    ]);
  });

  it('a HEAD answered by GET (one page) is logged once, its body never read', async () => {
    const logs = await requestLogs(async () => {
      const response = await handlerOf(batches, 'HEAD')!(request('/api/batches', { method: 'HEAD', cookie }));
      expect([response.status, response.body]).toEqual([200, null]);
    });
    expect(logs.map((l) => [l.method, l.path, l.status])).toEqual([['HEAD', '/api/batches', 200]]);
  });

  it('a stream or export dropped before its first page is logged once, as aborted', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 400 });
    for (const [module, path] of [
      [stream, '/api/batches/stream'],
      [exported, '/api/batches/export'],
    ] as const) {
      const logs = await requestLogs(async () => {
        const dropped = new Request(APP + path, { headers: { cookie }, signal: AbortSignal.timeout(100) });
        await handlerOf(module, 'GET')!(dropped);
      });
      expect(logs.map((l) => [l.method, l.path, l.status, l.aborted])).toEqual([['GET', path, 499, true]]);
    }
  });
});
