import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VIEWS } from '@/lib/contract/views';
import { AppError } from '@/lib/server/app-error';
import { SettingsStore } from '@/lib/server/settings';
import { refusal } from '../helpers/refusal';

let orgs = 0;
/** A client ID no other test uses: the tests of one database never see each other's rows. */
const newOrg = () => `views-${process.pid}-${++orgs}`;
const LETTUCE = 'from=2026-01-01&to=2026-01-31&tz=UTC&crop=Lettuce&warn=1';

describe('saved views in the embedded settings store (PGlite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'views-pglite-'));
  let store: SettingsStore;
  // PGlite's initdb (about 5 s, far more on a busy machine) in the hook, not in the first test's time.
  beforeAll(async () => {
    store = SettingsStore.open({ dataDir: join(dir, 'data') });
    await store.warm();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const views = () => store.views;

  it('keeps a view with its query as given, listed by name whatever the case, and to its organisation only', async () => {
    const [org, other] = [newOrg(), newOrg()];
    const before = Date.now();
    const lettuce = await views().create(org, { name: '  lettuce January ', query: `?${LETTUCE}` });
    await views().create(org, { name: 'All warnings', query: 'warn=1' });
    await views().create(org, { name: 'beans', query: '' });
    expect(lettuce).toMatchObject({ name: 'lettuce January', query: LETTUCE, isDefault: false });
    expect(lettuce.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(lettuce.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(lettuce.updatedAt).toBe(lettuce.createdAt);
    expect((await views().list(org)).map((v) => v.name)).toEqual(['All warnings', 'beans', 'lettuce January']);
    expect(await views().list(other)).toEqual([]);
  });

  it('refuses a name taken in the organisation whatever its case (409), but not one taken by another organisation', async () => {
    const [org, other] = [newOrg(), newOrg()];
    await views().create(org, { name: 'Lettuce', query: LETTUCE });
    const taken = await refusal(views().create(org, { name: 'LETTUCE', query: 'warn=1' }));
    expect([taken.code, taken.field, taken.message]).toEqual(['conflict', 'name', 'a view named "Lettuce" already exists in your organisation; choose another name']);
    await views().create(other, { name: 'lettuce', query: LETTUCE });
    expect(await views().list(org)).toHaveLength(1);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const org = newOrg();
    const cases: [unknown, string, string][] = [
      [{ name: '   ', query: '' }, 'name', 'must not be empty'],
      [{ name: 'x'.repeat(81), query: '' }, 'name', 'must be at most 80 characters'],
      [{ name: 'Mine', query: 'from=2026-01-01&colour=red' }, 'query', 'the explorer has no parameter "colour"'],
      [{ name: 'Mine', query: 'q='.padEnd(8001, 'a') }, 'query', 'must be at most 8000 characters'],
      [{ name: 'Mine' }, 'query', 'must be a text, the query string of /batches'],
      [{ name: 'Mine', query: '', clientId: 'other' }, 'clientId', 'unknown parameter'],
    ];
    for (const [input, field, message] of cases) {
      const error = await refusal(views().create(org, input));
      expect([error.code, error.field, error.message]).toEqual(['invalid_input', field, message]);
    }
    expect(await views().list(org)).toEqual([]);
  });

  it('keeps at most one default: making one the default makes the previous one not', async () => {
    const org = newOrg();
    const a = await views().create(org, { name: 'A', query: 'warn=1', isDefault: true });
    const b = await views().create(org, { name: 'B', query: 'below=1' });
    expect((await views().defaultView(org))?.id).toBe(a.id);
    const madeDefault = await views().change(org, b.id, { isDefault: true });
    expect(madeDefault.isDefault).toBe(true);
    expect(Date.parse(madeDefault.updatedAt)).toBeGreaterThanOrEqual(Date.parse(b.updatedAt));
    expect((await views().list(org)).map((v) => [v.name, v.isDefault])).toEqual([['A', false], ['B', true]]);
    await views().change(org, b.id, { isDefault: false });
    expect(await views().defaultView(org)).toBeNull();
  });

  it('two people making different views the default at once leave exactly one default', async () => {
    const org = newOrg();
    const made = await Promise.all(['A', 'B', 'C', 'D'].map((name) => views().create(org, { name, query: '' })));
    await Promise.all(made.map((v) => views().change(org, v.id, { isDefault: true })));
    expect((await views().list(org)).filter((v) => v.isDefault)).toHaveLength(1);
  });

  it('renames, to the same name in another case too, but not to a colleague’s view’s name', async () => {
    const org = newOrg();
    const a = await views().create(org, { name: 'Lettuce', query: LETTUCE });
    await views().create(org, { name: 'Beans', query: '' });
    expect((await views().change(org, a.id, { name: 'LETTUCE' })).name).toBe('LETTUCE');
    const taken = await refusal(views().change(org, a.id, { name: 'beans' }));
    expect([taken.code, taken.field]).toEqual(['conflict', 'name']);
    const nothing = await refusal(views().change(org, a.id, {}));
    expect([nothing.code, nothing.message]).toEqual(['invalid_input', 'must name a new name or isDefault']);
    expect((await views().list(org)).map((v) => v.name)).toEqual(['Beans', 'LETTUCE']);
  });

  it('another organisation’s view, a deleted one and an ID of no shape are all not found', async () => {
    const [org, other] = [newOrg(), newOrg()];
    const view = await views().create(org, { name: 'Mine', query: '' });
    for (const attempt of [views().change(other, view.id, { name: 'Theirs' }), views().delete(other, view.id), views().delete(org, 'not-an-id'), views().change(org, "1' or 1=1 --", { isDefault: true })]) {
      const error = await refusal(attempt);
      expect([error.code, error.field]).toEqual(['not_found', 'id']);
    }
    expect((await views().list(org))[0]?.name).toBe('Mine');
    await views().delete(org, view.id);
    expect((await refusal(views().delete(org, view.id))).code).toBe('not_found');
    expect(await views().list(org)).toEqual([]);
  });

  it(`keeps at most ${MAX_VIEWS} views per organisation, even when saved at once`, async () => {
    const org = newOrg();
    const results = await Promise.allSettled(Array.from({ length: MAX_VIEWS + 3 }, (_, i) => views().create(org, { name: `View ${i}`, query: '' })));
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r.reason as AppError).message);
    expect(refused).toEqual(Array(3).fill(`your organisation keeps at most ${MAX_VIEWS} saved views; delete one first`));
    expect(await views().list(org)).toHaveLength(MAX_VIEWS);
  });

  it('keeps the views across a restart', async () => {
    const org = newOrg();
    const view = await views().create(org, { name: 'Kept', query: LETTUCE, isDefault: true });
    await store.close();
    store = SettingsStore.open({ dataDir: join(dir, 'data') });
    expect(await views().list(org)).toEqual([view]);
  });
});
