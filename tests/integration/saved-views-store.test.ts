import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VIEWS } from '@/lib/contract/views';
import { AppError } from '@/lib/server/http/app-error';
import type { SettingsStore } from '@/lib/server/settings';
import type { Viewer } from '@/lib/server/settings/saved-views-store';
import { refusal } from '../helpers/refusal';
import { newMember, newOrganisation, openStore } from '../helpers/store';

const LETTUCE = 'from=2026-01-01&to=2026-01-31&tz=UTC&crop=Lettuce&warn=1';

describe('saved views in the embedded settings store (PGlite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'views-pglite-'));
  let store: SettingsStore;
  // PGlite's initdb (about 5 s, far more on a busy machine) in the hook, not in the first test's time.
  beforeAll(async () => {
    store = openStore({ dataDir: join(dir, 'data') });
    await store.warm();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const views = () => store.views;
  /** An organisation of its own with an editor (`who`), and more members on demand. */
  async function anOrganisation() {
    const { id: org } = await newOrganisation(store);
    const { who } = await newMember(store, org, 'editor');
    return { org, who, member: async (role: Viewer['role']) => (await newMember(store, org, role)).who };
  }

  it('keeps a view with its query as given, listed by name whatever the case, and to its organisation only', async () => {
    const [{ org, who }, other] = [await anOrganisation(), await anOrganisation()];
    const before = Date.now();
    const lettuce = await views().create(org, who, { name: '  lettuce January ', query: `?${LETTUCE}`, shared: true });
    await views().create(org, who, { name: 'All warnings', query: 'warn=1', shared: true });
    await views().create(org, who, { name: 'beans', query: '' });
    expect(lettuce).toMatchObject({
      name: 'lettuce January',
      query: LETTUCE,
      isDefault: false,
      shared: true,
      mine: true,
      owner: { name: 'A editor' },
    });
    expect(lettuce.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(lettuce.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(lettuce.updatedAt).toBe(lettuce.createdAt);
    expect((await views().list(org, who)).map((v) => v.name)).toEqual(['All warnings', 'beans', 'lettuce January']);
    expect(await views().list(other.org, other.who)).toEqual([]);
  });

  it('a view is its owner’s own until shared: colleagues see the shared ones only', async () => {
    const { org, who, member } = await anOrganisation();
    const colleague = await member('viewer');
    await views().create(org, who, { name: 'Mine', query: 'warn=1' });
    const shared = await views().create(org, who, { name: 'Ours', query: 'below=1', shared: true });
    const theirs = await views().create(org, colleague, { name: 'Viewer’s own', query: '' });
    expect((await views().list(org, colleague)).map((v) => [v.name, v.mine])).toEqual([
      ['Ours', false],
      ['Viewer’s own', true],
    ]);
    expect((await views().list(org, who)).map((v) => v.name)).toEqual(['Mine', 'Ours']);
    // Another person's own view does not exist for them; a viewer may not change what is shared.
    expect((await refusal(views().delete(org, who, theirs.id))).code).toBe('not_found');
    const refused = await refusal(views().change(org, colleague, shared.id, { name: 'Renamed' }));
    expect([refused.code, refused.field, refused.message]).toEqual([
      'forbidden_role',
      'role',
      'changing a view shared with the organisation needs the editor role; you are a viewer',
    ]);
    expect((await views().change(org, colleague, theirs.id, { name: 'Still mine' })).view.name).toBe('Still mine');
  });

  it('sharing and choosing the default need the editor role; the default is always shared', async () => {
    const { org, who, member } = await anOrganisation();
    const viewer = await member('viewer');
    for (const input of [{ shared: true }, { isDefault: true }]) {
      const error = await refusal(views().create(org, viewer, { name: 'Try', query: '', ...input }));
      expect([error.code, error.field]).toEqual(['forbidden_role', 'role']);
    }
    const own = await views().create(org, viewer, { name: 'Own', query: '' });
    expect((await refusal(views().change(org, viewer, own.id, { shared: true }))).message).toBe(
      'sharing a view with the organisation needs the editor role; you are a viewer',
    );
    const made = await views().create(org, who, { name: 'Start here', query: 'warn=1', isDefault: true });
    expect([made.isDefault, made.shared]).toEqual([true, true]);
    const unshared = await views().change(org, who, made.id, { shared: false });
    expect([unshared.view.isDefault, unshared.view.shared, unshared.before.isDefault]).toEqual([false, false, true]);
    expect(await views().defaultView(org)).toBeNull();
  });

  it('refuses a name taken in what the person sees whatever its case (409), but not one taken by another organisation', async () => {
    const [{ org, who }, other] = [await anOrganisation(), await anOrganisation()];
    await views().create(org, who, { name: 'Lettuce', query: LETTUCE, shared: true });
    const taken = await refusal(views().create(org, who, { name: 'LETTUCE', query: 'warn=1' }));
    expect([taken.code, taken.field, taken.message]).toEqual([
      'conflict',
      'name',
      'a view named "Lettuce" already exists in your organisation; choose another name',
    ]);
    await views().create(other.org, other.who, { name: 'lettuce', query: LETTUCE });
    expect(await views().list(org, who)).toHaveLength(1);
  });

  it('refuses bad input naming the field, and writes nothing; a page’s org= is no part of a view', async () => {
    const { org, who } = await anOrganisation();
    const cases: [unknown, string, string][] = [
      [{ name: '   ', query: '' }, 'name', 'must not be empty'],
      [{ name: 'x'.repeat(81), query: '' }, 'name', 'must be at most 80 characters'],
      [{ name: 'Mine', query: 'from=2026-01-01&colour=red' }, 'query', 'the explorer has no parameter "colour"'],
      [{ name: 'Mine', query: 'q='.padEnd(8001, 'a') }, 'query', 'must be at most 8000 characters'],
      [{ name: 'Mine' }, 'query', 'must be a text, the query string of /batches'],
      [{ name: 'Mine', query: '', clientId: 'other' }, 'clientId', 'unknown parameter'],
      [{ name: 'Mine', query: '', shared: 'yes' }, 'shared', 'must be true or false'],
    ];
    for (const [input, field, message] of cases) {
      const error = await refusal(views().create(org, who, input));
      expect([error.code, error.field, error.message]).toEqual(['invalid_input', field, message]);
    }
    expect(await views().list(org, who)).toEqual([]);
    expect((await views().create(org, who, { name: 'Here', query: 'org=demo&warn=1&tz=UTC' })).query).toBe(
      'warn=1&tz=UTC',
    );
  });

  it('keeps at most one default: making one the default makes the previous one not', async () => {
    const { org, who } = await anOrganisation();
    const a = await views().create(org, who, { name: 'A', query: 'warn=1', isDefault: true });
    const b = await views().create(org, who, { name: 'B', query: 'below=1' });
    expect((await views().defaultView(org))?.query).toBe(a.query);
    const { view: madeDefault } = await views().change(org, who, b.id, { isDefault: true });
    expect([madeDefault.isDefault, madeDefault.shared]).toEqual([true, true]);
    expect(Date.parse(madeDefault.updatedAt)).toBeGreaterThanOrEqual(Date.parse(b.updatedAt));
    expect((await views().list(org, who)).map((v) => [v.name, v.isDefault])).toEqual([
      ['A', false],
      ['B', true],
    ]);
    await views().change(org, who, b.id, { isDefault: false });
    expect(await views().defaultView(org)).toBeNull();
  });

  it('two people making different views the default at once leave exactly one default', async () => {
    const { org, who } = await anOrganisation();
    const made = await Promise.all(['A', 'B', 'C', 'D'].map((name) => views().create(org, who, { name, query: '' })));
    await Promise.all(made.map((v) => views().change(org, who, v.id, { isDefault: true })));
    expect((await views().list(org, who)).filter((v) => v.isDefault)).toHaveLength(1);
  });

  it('renames, to the same name in another case too, but not to a colleague’s shared view’s name', async () => {
    const { org, who } = await anOrganisation();
    const a = await views().create(org, who, { name: 'Lettuce', query: LETTUCE });
    await views().create(org, who, { name: 'Beans', query: '', shared: true });
    expect((await views().change(org, who, a.id, { name: 'LETTUCE' })).view.name).toBe('LETTUCE');
    const taken = await refusal(views().change(org, who, a.id, { name: 'beans' }));
    expect([taken.code, taken.field]).toEqual(['conflict', 'name']);
    const nothing = await refusal(views().change(org, who, a.id, {}));
    expect([nothing.code, nothing.message]).toEqual(['invalid_input', 'must name a new name, isDefault or shared']);
    expect((await views().list(org, who)).map((v) => v.name)).toEqual(['Beans', 'LETTUCE']);
  });

  it('another organisation’s view, a deleted one and an ID of no shape are all not found', async () => {
    const [{ org, who }, other] = [await anOrganisation(), await anOrganisation()];
    const view = await views().create(org, who, { name: 'Mine', query: '', shared: true });
    for (const attempt of [
      views().change(other.org, other.who, view.id, { name: 'Theirs' }),
      views().delete(other.org, other.who, view.id),
      views().delete(org, who, 'not-an-id'),
      views().change(org, who, "1' or 1=1 --", { isDefault: true }),
    ]) {
      const error = await refusal(attempt);
      expect([error.code, error.field]).toEqual(['not_found', 'id']);
    }
    expect((await views().list(org, who))[0]?.name).toBe('Mine');
    await views().delete(org, who, view.id);
    expect((await refusal(views().delete(org, who, view.id))).code).toBe('not_found');
    expect(await views().list(org, who)).toEqual([]);
  });

  it(`shows a person at most ${MAX_VIEWS} views, even when saved at once`, async () => {
    const { org, who } = await anOrganisation();
    const results = await Promise.allSettled(
      Array.from({ length: MAX_VIEWS + 3 }, (_, i) => views().create(org, who, { name: `View ${i}`, query: '' })),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r.reason as AppError).message);
    expect(refused).toEqual(
      Array(3).fill(`you see at most ${MAX_VIEWS} saved views in your organisation; delete one first`),
    );
    expect(await views().list(org, who)).toHaveLength(MAX_VIEWS);
  });

  it('a person removed from the organisation takes their own views along; what they shared stays, the organisation’s', async () => {
    const { org, who, member } = await anOrganisation();
    const leaving = await member('editor');
    await views().create(org, leaving, { name: 'Private', query: '' });
    const shared = await views().create(org, leaving, { name: 'For everyone', query: 'warn=1', shared: true });
    await store.people.removeMember(org, leaving.personId);
    expect(await views().list(org, who)).toEqual([{ ...shared, owner: null, mine: false }]);
  });

  it('keeps the views across a restart', async () => {
    const { org, who } = await anOrganisation();
    const view = await views().create(org, who, { name: 'Kept', query: LETTUCE, isDefault: true });
    await store.close();
    store = openStore({ dataDir: join(dir, 'data') });
    expect(await views().list(org, who)).toEqual([view]);
  });
});
