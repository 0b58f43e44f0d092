import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  DEFAULT_TARGETS,
  MAX_CROP_NAME,
  MAX_CROP_TARGETS,
  type Targets,
  type TargetSettings,
} from '../../lib/contract/targets';
import { freePort, startPostgres } from '../helpers/postgres-server';
import { startApp } from './app-instance';
import { APP_URL, api, DEMO, DEMO_ADMIN, DEMO_VIEWER, EDGE, OTHER, signIn, SPECIAL } from './support';

const PATH = '/api/settings/targets';
const LETTUCE: Targets = {
  general: { germination: 85, usable: 70, cv: null },
  crops: { Lettuce: { germination: 80, usable: null, cv: null } },
};

/** A save as the dashboard's own page sends it (same origin), unless `headers` say otherwise. */
const put = (cookie: string, json: unknown, headers: Record<string, string> = { origin: APP_URL }) =>
  api(PATH, { method: 'PUT', cookie, json, headers });
const read = async (cookie: string, base = APP_URL) => {
  const response = await fetch(base + PATH, { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as TargetSettings;
};

// The settings outlive this file (one app serves every spec): the demo organisation's targets go back to
// the defaults, which the explorer's specs judge by.
test.afterAll(async () => {
  const response = await put(await signIn(), { targets: DEFAULT_TARGETS });
  expect(response.status).toBe(200);
});

// Which organisation each test writes for: the demo one (saves, conflicts), the special-character one (the
// largest body); the edge and other organisations are never written, so their answers stay the defaults.

test('401 without a session, for reading and for saving', async () => {
  for (const method of ['GET', 'PUT']) {
    const response = await api(PATH, {
      method,
      json: method === 'PUT' ? { targets: LETTUCE } : undefined,
      headers: { origin: APP_URL },
    });
    expect([method, response.status, (await response.json()).detail]).toEqual([method, 401, 'session: not signed in']);
  }
});

test('an organisation that never saved reads the defaults, never saved, not to be cached', async () => {
  const response = await api(PATH, { cookie: await signIn(EDGE) });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({ targets: DEFAULT_TARGETS, updatedAt: null, updatedBy: null });
});

test('a save is seen by everyone of the organisation, with when and by whom; never by another organisation', async () => {
  const saved = await put(await signIn(), { targets: LETTUCE });
  expect(saved.status).toBe(200);
  const body = (await saved.json()) as TargetSettings;
  expect(body.targets).toEqual(LETTUCE);
  expect(body.updatedBy).toEqual({ email: DEMO.email, name: DEMO.name });
  expect(Math.abs(Date.parse(body.updatedAt!) - Date.now())).toBeLessThan(60_000);
  // A colleague: a viewer of the same organisation.
  expect(await read(await signIn(DEMO_VIEWER))).toEqual(body);
  expect(await read(await signIn(OTHER))).toEqual({ targets: DEFAULT_TARGETS, updatedAt: null, updatedBy: null });
});

test('a viewer may read the targets but not save them (403 naming the role); an administrator may', async () => {
  const refused = await put(await signIn(DEMO_VIEWER), { targets: LETTUCE });
  expect([refused.status, (await refused.json()).detail]).toEqual([
    403,
    'role: saving the targets needs the editor role; you are a viewer',
  ]);
  expect((await put(await signIn(DEMO_ADMIN), { targets: LETTUCE })).status).toBe(200);
});

test('409 naming the colleague who saved since the version the edit started from; nothing is overwritten', async () => {
  const cookie = await signIn(DEMO_ADMIN);
  const start = await read(cookie);
  const mine = await put(cookie, { targets: LETTUCE, expectedUpdatedAt: start.updatedAt });
  expect(mine.status).toBe(200);
  const { updatedAt } = (await mine.json()) as TargetSettings;
  const colleague = await put(await signIn(), { targets: DEFAULT_TARGETS, expectedUpdatedAt: start.updatedAt });
  expect(colleague.status).toBe(409);
  expect((await colleague.json()).detail).toBe(
    `targets: ${DEMO_ADMIN.name} changed the targets at ${updatedAt}; load them again before saving`,
  );
  expect((await read(cookie)).targets).toEqual(LETTUCE);
});

test('a save from another site is refused with 403 (Origin, then Sec-Fetch-Site), and changes nothing', async () => {
  const cookie = await signIn();
  const before = await read(cookie);
  const foreign: Record<string, string>[] = [
    { origin: 'http://evil.example' },
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
  ];
  for (const headers of foreign) {
    const response = await put(cookie, { targets: DEFAULT_TARGETS }, headers);
    expect(response.status).toBe(403);
    expect((await response.json()).detail).toMatch(/^origin: /);
  }
  expect(await read(cookie)).toEqual(before);
});

test.describe('bad bodies are refused naming the field, never a 5xx', () => {
  const long = 'L'.repeat(MAX_CROP_NAME + 1);
  const cases: [string, unknown, number, string | RegExp][] = [
    [
      'a target above 100',
      { targets: { ...LETTUCE, crops: { Lettuce: { germination: 101, usable: null, cv: null } } } },
      422,
      'targets.crops.Lettuce.germination: must be from 0 to 100',
    ],
    [
      'a negative general target',
      { targets: { ...LETTUCE, general: { germination: -1, usable: null, cv: null } } },
      422,
      'targets.general.germination: must be from 0 to 100',
    ],
    [
      'three decimals',
      { targets: { ...LETTUCE, general: { germination: 90.125, usable: null, cv: null } } },
      422,
      'targets.general.germination: must have at most two decimals',
    ],
    [
      'a string for a number',
      { targets: { ...LETTUCE, general: { germination: '90', usable: null, cv: null } } },
      422,
      'targets.general.germination: must be a number from 0 to 100',
    ],
    [
      'an unknown key in a pair',
      { targets: { ...LETTUCE, general: { germination: 90, usable: null, yield: 3 } } },
      422,
      'targets.general.yield: unknown parameter',
    ],
    ['an unknown key at the top', { targets: LETTUCE, clientId: 'other-client' }, 422, 'clientId: unknown parameter'],
    ['no targets', { expectedUpdatedAt: null }, 422, /^targets: /],
    [
      'an expectedUpdatedAt that is no time',
      { targets: LETTUCE, expectedUpdatedAt: 'yesterday' },
      422,
      /^expectedUpdatedAt: must be the updatedAt/,
    ],
    [
      'a crop name over 100 characters',
      { targets: { ...LETTUCE, crops: { [long]: { germination: 1, usable: null, cv: null } } } },
      422,
      `targets.crops.${long}: a crop name must be at most 100 characters`,
    ],
    [
      'a name of 5000 characters, echoed in part',
      { targets: { ...LETTUCE, crops: { ['L'.repeat(5000)]: { germination: 1, usable: null, cv: null } } } },
      422,
      /^targets\.crops\.L{146}…: a crop name must be at most 100 characters$/,
    ],
    ['not JSON', '{"targets":', 422, 'body: not valid JSON'],
    ['a JSON array', '[]', 422, /^body: /],
  ];
  for (const [name, json, status, detail] of cases) {
    test(`${status} for ${name}`, async () => {
      const response = await put(await signIn(), json);
      expect(response.status).toBe(status);
      const text = (await response.json()).detail as string;
      if (typeof detail === 'string') expect(text).toBe(detail);
      else expect(text).toMatch(detail);
    });
  }

  test('415 for a body that is not declared JSON', async () => {
    const response = await api(PATH, {
      method: 'PUT',
      cookie: await signIn(),
      headers: { origin: APP_URL, 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect((await response.json()).detail).toBe('body: must be application/json');
  });
});

test('the largest target set the contract allows is saved; one crop more is 422, a larger body 413', async () => {
  // 100 three-byte characters a name: the most bytes a name can take in UTF-8.
  const crops = Object.fromEntries(
    Array.from({ length: MAX_CROP_TARGETS }, (_, i) => [
      `${i}`.padStart(3, '0') + '€'.repeat(MAX_CROP_NAME - 3),
      { germination: 99.99, usable: 88.88, cv: null },
    ]),
  );
  const largest: Targets = { general: { germination: 90, usable: null, cv: null }, crops };
  expect(JSON.stringify({ targets: largest }).length).toBeGreaterThan(8 * 1024);
  const cookie = await signIn(SPECIAL);
  const saved = await put(cookie, { targets: largest });
  expect(saved.status).toBe(200);
  expect((await read(cookie)).targets).toEqual(largest);
  const more = await put(cookie, {
    targets: { ...largest, crops: { ...crops, extra: { germination: 1, usable: null, cv: null } } },
  });
  expect([more.status, (await more.json()).detail]).toEqual([422, 'targets.crops: at most 200 crops']);
  const huge = await put(cookie, { targets: largest, padding: 'x'.repeat(200_000) });
  expect(huge.status).toBe(413);
});

test('other methods are 405 with Allow', async () => {
  const response = await api(PATH, {
    method: 'POST',
    cookie: await signIn(),
    json: { targets: LETTUCE },
    headers: { origin: APP_URL },
  });
  expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS, PUT']);
});

test.describe('instances of their own', () => {
  const port = Number(process.env.E2E_APP_PORT ?? 3510) + 70;
  const signInAt = async (url: string) => {
    const response = await fetch(`${url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
    });
    expect(response.status).toBe(204);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  };
  const saveAt = async (url: string, cookie: string, targets: Targets) => {
    const response = await fetch(url + PATH, {
      method: 'PUT',
      headers: { cookie, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ targets }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as TargetSettings;
  };

  test('the embedded database keeps the targets and the sessions when the app restarts on the same SETTINGS_DATA_DIR: a signed-out one stays out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsb-e2e-restart-'));
    try {
      const first = await startApp(port, { SETTINGS_DATA_DIR: dir });
      const live = await signInAt(first.url);
      const saved = await saveAt(first.url, live, LETTUCE);
      const signedOut = await signInAt(first.url);
      expect(
        (
          await fetch(`${first.url}/api/session`, {
            method: 'DELETE',
            headers: { cookie: signedOut, origin: first.url },
          })
        ).status,
      ).toBe(204);
      await first.stop();
      const second = await startApp(port, { SETTINGS_DATA_DIR: dir });
      try {
        expect(await read(live, second.url)).toEqual(saved);
        const refused = await fetch(`${second.url}/api/session`, { headers: { cookie: signedOut } });
        expect([refused.status, (await refused.json()).detail]).toEqual([401, 'session: signed out; sign in again']);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('with DATABASE_URL, two instances share PostgreSQL; PostgreSQL down is a 503 that says so (sessions live there too)', async () => {
    const postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase('dashboard');
    const apps = await Promise.all([
      startApp(port, { DATABASE_URL: databaseUrl }),
      startApp(port + 1, { DATABASE_URL: databaseUrl }),
    ]);
    try {
      const [a, b] = apps.map((app) => app.url) as [string, string];
      const saved = await saveAt(a, await signInAt(a), LETTUCE);
      const cookieB = await signInAt(b);
      expect(await read(cookieB, b)).toEqual(saved);
      await postgres.stop();
      const down = await fetch(b + PATH, { headers: { cookie: cookieB } });
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await down.json()).detail).toBe('session: the session store is unavailable; try again shortly');
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
      await postgres.stop();
    }
  });

  test('a DATABASE_URL nothing answers at is a 503 from the first request, the sign-in included', async () => {
    const app = await startApp(port + 2, { DATABASE_URL: `postgres://app@127.0.0.1:${await freePort()}/none` });
    try {
      const response = await fetch(`${app.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.url },
        body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
      });
      expect([response.status, (await response.json()).detail]).toEqual([
        503,
        'settings: the settings store is unavailable; try again shortly',
      ]);
    } finally {
      await app.stop();
    }
  });
});
