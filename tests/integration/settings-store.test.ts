import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, type Targets } from '@/lib/contract/targets';
import { SettingsStore, TARGETS_SETTING, type DatabasePlace } from '@/lib/server/settings';
import { freePort, startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { refusal } from '../helpers/refusal';

const LETTUCE: Targets = { general: { germination: 88, usable: 80, cv: null }, crops: { Lettuce: { germination: 75.5, usable: null, cv: null } } };
let orgs = 0;
/** A client ID no other test uses: the tests of one database never see each other's rows. */
const newOrg = () => `org-${process.pid}-${++orgs}`;

/** What every settings store does, embedded or PostgreSQL: `place()` is a database already in use by other tests. */
function behavesAsTheSettingsStore(place: () => DatabasePlace) {
  let store: SettingsStore;
  beforeAll(() => {
    store = SettingsStore.open(place());
  });
  afterAll(() => store.close());
  const current = () => store;
  /** As an app restart does: the store closed, then opened again on the same database. */
  const restart = async () => {
    await store.close();
    store = SettingsStore.open(place());
  };

  it('answers the default targets, never saved, for an organisation that saved none', async () => {
    expect(await store.get(newOrg(), TARGETS_SETTING)).toEqual({ value: DEFAULT_TARGETS, updatedAt: null });
  });

  it('keeps what was saved, with the time of the save', async () => {
    const org = newOrg();
    const before = Date.now();
    const saved = await store.put(org, TARGETS_SETTING, LETTUCE);
    expect(saved.value).toEqual(LETTUCE);
    expect(Date.parse(saved.updatedAt!)).toBeGreaterThanOrEqual(before - 5_000);
    expect(new Date(saved.updatedAt!).toISOString()).toBe(saved.updatedAt);
    expect(await store.get(org, TARGETS_SETTING)).toEqual(saved);
  });

  it('keeps each organisation to its own: a save of one is not seen by another', async () => {
    const [mine, theirs] = [newOrg(), newOrg()];
    await store.put(mine, TARGETS_SETTING, LETTUCE);
    expect(await store.get(theirs, TARGETS_SETTING)).toEqual({ value: DEFAULT_TARGETS, updatedAt: null });
    await store.put(theirs, TARGETS_SETTING, DEFAULT_TARGETS);
    expect((await store.get(mine, TARGETS_SETTING)).value).toEqual(LETTUCE);
  });

  it('refuses a value its schema refuses, naming the field, and writes nothing', async () => {
    const org = newOrg();
    const bad = { ...LETTUCE, crops: { Lettuce: { germination: 101, usable: null, cv: null } } };
    const error = await refusal(store.put(org, TARGETS_SETTING, bad));
    expect([error.code, error.field, error.message]).toEqual(['invalid_input', 'targets.crops.Lettuce.germination', 'must be from 0 to 100']);
    expect((await store.get(org, TARGETS_SETTING)).updatedAt).toBeNull();
  });

  it('refuses a save based on a version a colleague replaced since (409), and takes one based on the current', async () => {
    const org = newOrg();
    const first = await store.put(org, TARGETS_SETTING, DEFAULT_TARGETS, null);
    const second = await store.put(org, TARGETS_SETTING, LETTUCE, first.updatedAt);
    expect(Date.parse(second.updatedAt!)).toBeGreaterThan(Date.parse(first.updatedAt!));
    const stale = await refusal(store.put(org, TARGETS_SETTING, DEFAULT_TARGETS, first.updatedAt));
    expect([stale.code, stale.field]).toEqual(['edit_conflict', 'targets']);
    expect(stale.message).toBe(`a colleague changed the targets at ${second.updatedAt}; load them again before saving`);
    const firstSave = await refusal(store.put(org, TARGETS_SETTING, DEFAULT_TARGETS, null));
    expect(firstSave.code).toBe('edit_conflict');
    expect((await store.get(org, TARGETS_SETTING)).value).toEqual(LETTUCE);
  });

  it('lets exactly one of two saves from the same version through', async () => {
    const org = newOrg();
    const base = await store.put(org, TARGETS_SETTING, DEFAULT_TARGETS);
    const results = await Promise.allSettled([
      store.put(org, TARGETS_SETTING, LETTUCE, base.updatedAt),
      store.put(org, TARGETS_SETTING, { ...LETTUCE, crops: {} }, base.updatedAt),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('gives saves in quick succession distinct, increasing times', async () => {
    const org = newOrg();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(Date.parse((await store.put(org, TARGETS_SETTING, DEFAULT_TARGETS)).updatedAt!));
    expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
  });

  return { current, restart };
}

describe('the embedded settings store (PGlite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'settings-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // One directory for the file: a new one costs PGlite's initdb, about 5 s here.
  const store = behavesAsTheSettingsStore(() => ({ dataDir: join(dir, 'data') }));

  it('keeps the targets across a restart (closed, then opened again on the same directory)', async () => {
    const org = newOrg();
    const saved = await store.current().put(org, TARGETS_SETTING, LETTUCE);
    await store.restart();
    expect(await store.current().get(org, TARGETS_SETTING)).toEqual(saved);
  });
});

describe('the settings store on PostgreSQL', () => {
  let server: PostgresServer;
  let shared: string;
  beforeAll(async () => {
    server = await startPostgres();
    shared = await server.createDatabase('shared');
  });
  afterAll(() => server?.stop());

  behavesAsTheSettingsStore(() => ({ databaseUrl: shared }));

  it('two instances starting together on a new database both migrate it without harm and see each other’s saves', async () => {
    const databaseUrl = await server.createDatabase('two_instances');
    const [a, b] = [SettingsStore.open({ databaseUrl }), SettingsStore.open({ databaseUrl })];
    const [fromA, fromB] = await Promise.all([a.get('demo-client', TARGETS_SETTING), b.get('other-client', TARGETS_SETTING)]);
    expect([fromA.updatedAt, fromB.updatedAt]).toEqual([null, null]);
    const saved = await a.put('demo-client', TARGETS_SETTING, LETTUCE);
    expect(await b.get('demo-client', TARGETS_SETTING)).toEqual(saved);
    expect((await b.get('other-client', TARGETS_SETTING)).updatedAt).toBeNull();
    await Promise.all([a.close(), b.close()]);
  });

  it('a database that cannot be reached is store_unavailable (503), logged, never an unexplained 500', async () => {
    const port = await freePort();
    const store = SettingsStore.open({ databaseUrl: `postgres://app@127.0.0.1:${port}/postgres` });
    const error = await refusal(store.get('demo-client', TARGETS_SETTING));
    expect([error.code, error.field, error.message]).toEqual(['store_unavailable', 'settings', 'the settings store is unavailable; try again shortly']);
    await store.close();
  });
});
