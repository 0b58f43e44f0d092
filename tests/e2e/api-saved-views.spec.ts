import { expect, test } from '@playwright/test';
import type { SavedView, SavedViewList } from '../../lib/contract/views';
import { api, APP_URL, DEMO_VIEWER, OTHER, sandbox, signIn } from './support';

const PATH = '/api/settings/views';
const QUERY = 'from=2026-01-01&to=2026-01-31&tz=UTC&crop=Lettuce&warn=1';
const SAME_ORIGIN = { origin: APP_URL };

const post = (cookie: string, json: unknown, headers = SAME_ORIGIN) =>
  api(PATH, { method: 'POST', cookie, json, headers });
const patch = (cookie: string, id: string, json: unknown) =>
  api(`${PATH}/${id}`, { method: 'PATCH', cookie, json, headers: SAME_ORIGIN });
const remove = (cookie: string, id: string) => api(`${PATH}/${id}`, { method: 'DELETE', cookie, headers: SAME_ORIGIN });
const list = async (cookie: string) => {
  const response = await api(PATH, { cookie });
  expect([response.status, response.headers.get('cache-control')]).toEqual([200, 'no-store']);
  return ((await response.json()) as SavedViewList).views;
};
const created = async (cookie: string, json: unknown) => {
  const response = await post(cookie, json);
  expect(response.status).toBe(201);
  return (await response.json()) as SavedView;
};

// The app outlives this file: the demo organisation's views (which /batches may open by default) and the
// viewer's own go. The sandbox outlives it too: a fault left switched on by another spec must not fail the sign-in.
const clear = async () => {
  await sandbox('POST', '/_sandbox/reset');
  for (const person of [undefined, DEMO_VIEWER]) {
    const cookie = await signIn(person);
    for (const view of (await list(cookie)).filter((v) => v.mine || v.owner === null))
      expect((await remove(cookie, view.id)).status).toBe(204);
  }
};
test.beforeEach(clear);
test.afterAll(clear);

test('401 without a session, for every method', async () => {
  const id = '0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f';
  for (const [method, path] of [
    ['GET', PATH],
    ['POST', PATH],
    ['PATCH', `${PATH}/${id}`],
    ['DELETE', `${PATH}/${id}`],
  ] as const) {
    const response = await api(path, {
      method,
      json: method === 'POST' || method === 'PATCH' ? { name: 'x', query: '' } : undefined,
      headers: SAME_ORIGIN,
    });
    expect([method, response.status, (await response.json()).detail]).toEqual([method, 401, 'session: not signed in']);
  }
});

test('a view shared with the organisation: a colleague lists it, another organisation sees none and touches none', async () => {
  const cookie = await signIn();
  const view = await created(cookie, { name: 'Lettuce, January', query: `?${QUERY}`, shared: true });
  expect(view).toMatchObject({ name: 'Lettuce, January', query: QUERY, isDefault: false, shared: true, mine: true });
  // Parameters the explorer gained after saved views were written (read from its schema) are a view's too.
  await created(cookie, { name: 'all warnings', query: 'warn=1&metric=usable&chart=focus&group=crop', shared: true });
  await created(cookie, { name: 'just mine', query: 'below=1' });
  const colleague = await signIn(DEMO_VIEWER);
  expect((await list(colleague)).map((v) => v.name)).toEqual(['all warnings', 'Lettuce, January']);
  expect((await list(colleague)).find((v) => v.id === view.id)).toEqual({ ...view, mine: false });

  const other = await signIn(OTHER);
  expect(await list(other)).toEqual([]);
  for (const response of [await patch(other, view.id, { name: 'Mine now' }), await remove(other, view.id)]) {
    expect([response.status, (await response.json()).detail]).toEqual([
      404,
      'id: no saved view with this id in your organisation',
    ]);
  }
  expect((await list(cookie)).find((v) => v.id === view.id)?.name).toBe('Lettuce, January');
});

test('409 for a name the organisation already uses, whatever its case', async () => {
  const cookie = await signIn();
  await created(cookie, { name: 'Lettuce', query: QUERY, shared: true });
  const response = await post(cookie, { name: ' LETTUCE ', query: 'warn=1' });
  expect([response.status, (await response.json()).detail]).toEqual([
    409,
    'name: a view named "Lettuce" already exists in your organisation; choose another name',
  ]);
  expect(await list(cookie)).toHaveLength(1);
});

test('rename, make default (the previous default stops being one), unset, delete', async () => {
  const cookie = await signIn();
  const a = await created(cookie, { name: 'A', query: 'warn=1', isDefault: true });
  const b = await created(cookie, { name: 'B', query: 'below=1' });

  const renamed = await patch(cookie, b.id, { name: 'Below target' });
  expect(renamed.status).toBe(200);
  expect(await renamed.json()).toMatchObject({ id: b.id, name: 'Below target', query: 'below=1', isDefault: false });
  const taken = await patch(cookie, b.id, { name: 'a' });
  expect([taken.status, (await taken.json()).detail]).toEqual([
    409,
    'name: a view named "A" already exists in your organisation; choose another name',
  ]);

  expect((await patch(cookie, b.id, { isDefault: true })).status).toBe(200);
  expect((await list(cookie)).map((v) => [v.name, v.isDefault])).toEqual([
    ['A', false],
    ['Below target', true],
  ]);
  expect((await patch(cookie, b.id, { isDefault: false })).status).toBe(200);
  expect((await list(cookie)).every((v) => !v.isDefault)).toBe(true);

  const deleted = await remove(cookie, a.id);
  expect([deleted.status, await deleted.text()]).toEqual([204, '']);
  const again = await remove(cookie, a.id);
  expect([again.status, (await again.json()).detail]).toEqual([
    404,
    'id: no saved view with this id in your organisation',
  ]);
  expect((await list(cookie)).map((v) => v.name)).toEqual(['Below target']);
});

test('an ID of no shape is 404, never a 5xx', async () => {
  const cookie = await signIn();
  for (const id of ['nope', '%27%20or%201%3D1', '0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4fff']) {
    for (const response of [await patch(cookie, id, { isDefault: true }), await remove(cookie, id)]) {
      expect([id, response.status, (await response.json()).detail]).toEqual([
        id,
        404,
        'id: no saved view with this id in your organisation',
      ]);
    }
  }
  // Percent-encoding that does not decode: Next alone would answer a bare 500 for the dynamic segment.
  for (const response of [await patch(cookie, '%E0%A4%A', { isDefault: true }), await remove(cookie, '%E0%A4%A')]) {
    expect([response.status, (await response.json()).detail]).toEqual([
      404,
      'path: no such resource: its percent-encoding does not decode',
    ]);
  }
});

test('a write from another site is refused with 403 and saves nothing', async () => {
  const cookie = await signIn();
  const response = await post(cookie, { name: 'Evil', query: '' }, { origin: 'http://evil.example' });
  expect(response.status).toBe(403);
  expect(await list(cookie)).toEqual([]);
});

test.describe('bad bodies are refused naming the field, never a 5xx', () => {
  const cases: [string, unknown, string | RegExp][] = [
    ['an empty name', { name: '  ', query: '' }, 'name: must not be empty'],
    ['a name over 80 characters', { name: 'n'.repeat(81), query: '' }, 'name: must be at most 80 characters'],
    ['a name that is no text', { name: 42, query: '' }, 'name: must be a text'],
    ['no query', { name: 'Mine' }, 'query: must be a text, the query string of /batches'],
    [
      'a parameter the explorer does not have',
      { name: 'Mine', query: 'crop=Lettuce&colour=red' },
      'query: the explorer has no parameter "colour"',
    ],
    [
      'a query over 8,000 characters',
      { name: 'Mine', query: `q=${'a'.repeat(7999)}` },
      'query: must be at most 8000 characters',
    ],
    ['isDefault that is no boolean', { name: 'Mine', query: '', isDefault: 'yes' }, 'isDefault: must be true or false'],
    ['an unknown key', { name: 'Mine', query: '', clientId: 'other-client' }, 'clientId: unknown parameter'],
    ['not JSON', '{"name":', 'body: not valid JSON'],
  ];
  for (const [name, json, detail] of cases) {
    test(`422 for ${name}`, async () => {
      const response = await post(await signIn(), json);
      expect([response.status, (await response.json()).detail]).toEqual([422, detail]);
    });
  }

  test('422 for a change that changes nothing or has an unknown key', async () => {
    const cookie = await signIn();
    const view = await created(cookie, { name: 'Mine', query: '' });
    for (const [json, detail] of [
      [{}, 'body: must name a new name, isDefault or shared'],
      [{ query: 'warn=1' }, 'query: unknown parameter'],
      [{ name: '' }, 'name: must not be empty'],
    ] as const) {
      const response = await patch(cookie, view.id, json);
      expect([response.status, (await response.json()).detail]).toEqual([422, detail]);
    }
  });
});

test('a viewer keeps views of their own, but sharing, changing a shared view and choosing the default need an editor (403 naming the role)', async () => {
  const editor = await signIn();
  const viewer = await signIn(DEMO_VIEWER);
  const own = await created(viewer, { name: 'Viewer’s own', query: 'warn=1' });
  expect(own).toMatchObject({ shared: false, mine: true });
  expect((await patch(viewer, own.id, { name: 'Renamed' })).status).toBe(200);
  const shared = await created(editor, { name: 'Shared', query: 'below=1', shared: true });
  for (const [response, what] of [
    [await post(viewer, { name: 'Try', query: '', shared: true }), 'sharing a view with the organisation'],
    [await post(viewer, { name: 'Try', query: '', isDefault: true }), 'making a view the default'],
    [await patch(viewer, own.id, { shared: true }), 'sharing a view with the organisation'],
    [await patch(viewer, shared.id, { name: 'Mine now' }), 'changing a view shared with the organisation'],
    [await remove(viewer, shared.id), 'deleting a view shared with the organisation'],
  ] as const) {
    expect([response.status, (await response.json()).detail]).toEqual([
      403,
      `role: ${what} needs the editor role; you are a viewer`,
    ]);
  }
  // The viewer's own view is nobody else's business: the editor does not see it.
  expect((await list(editor)).map((v) => v.name)).toEqual(['Shared']);
  expect((await remove(viewer, own.id)).status).toBe(204);
});

test('other methods are 405 with Allow', async () => {
  const cookie = await signIn();
  const put = await api(PATH, { method: 'PUT', cookie, json: {}, headers: SAME_ORIGIN });
  expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS, POST']);
  const get = await api(`${PATH}/0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f`, { cookie });
  expect([get.status, get.headers.get('allow')]).toEqual([405, 'DELETE, OPTIONS, PATCH']);
});

test('a bare /batches opens the default view; any query (the zone alone included), or a view no longer the default, does not', async () => {
  const cookie = await signIn();
  const view = await created(cookie, { name: 'Lettuce', query: 'crop=Lettuce&warn=1', isDefault: true });
  const location = async (path: string) => {
    const response = await api(path, { cookie });
    const text = response.status === 200 ? await response.text() : '';
    await response.body?.cancel().catch(() => undefined);
    if (response.status === 307 || response.status === 303) return response.headers.get('location');
    const refresh = /<meta id="__next-page-redirect" http-equiv="refresh" content="\d+;url=([^"]*)"/.exec(text);
    return refresh ? refresh[1]!.replaceAll('&amp;', '&') : null;
  };
  expect(await location('/batches')).toBe('/batches?crop=Lettuce&warn=1&opened=default');
  // The organisation in the address is no state of the view: that organisation's default opens, still naming it.
  expect(await location('/batches?org=demo')).toBe('/batches?crop=Lettuce&warn=1&opened=default&org=demo');
  // The zone alone is All time of older links, no bare URL.
  expect(await location('/batches?tz=Europe/Amsterdam')).toBeNull();
  expect(await location('/batches?from=all&to=now&tz=Europe/Amsterdam')).toBeNull();
  expect(await location('/batches?tz=UTC&below=1')).toBeNull();
  expect(await location('/batches?crop=Lettuce&warn=1&opened=default')).toBeNull();
  expect((await patch(cookie, view.id, { isDefault: false })).status).toBe(200);
  expect(await location('/batches')).toBeNull();
});
