import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, type Targets } from '@/lib/contract/targets';
import { TARGETS_SETTING, type DatabasePlace, type SettingsStore } from '@/lib/server/settings';
import { freePort, startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { refusal } from '../helpers/refusal';
import { newMember, newOrganisation, openStore } from '../helpers/store';

const LETTUCE: Targets = {
  general: { germination: 88, usable: 80, cv: null },
  crops: { Lettuce: { germination: 75.5, usable: null, cv: null } },
};

/** What every settings store does, embedded or PostgreSQL: `place()` is a database already in use by other tests. */
function behavesAsTheSettingsStore(place: () => DatabasePlace) {
  let store: SettingsStore;
  beforeAll(async () => {
    store = openStore(place());
    await store.warm();
  });
  /** An organisation of its own: the tests of one database never see each other's rows. */
  const newOrg = async () => (await newOrganisation(store)).id;
  afterAll(() => store.close());
  const current = () => store;
  /** As an app restart does: the store closed, then opened again on the same database. */
  const restart = async () => {
    await store.close();
    store = openStore(place());
  };

  it('answers the default targets, never saved, for an organisation that saved none', async () => {
    expect(await store.get(await newOrg(), TARGETS_SETTING)).toEqual({
      value: DEFAULT_TARGETS,
      updatedAt: null,
      updatedBy: null,
    });
  });

  it('keeps what was saved, with the time of the save', async () => {
    const org = await newOrg();
    const before = Date.now();
    const saved = await store.put(org, TARGETS_SETTING, LETTUCE);
    expect(saved.value).toEqual(LETTUCE);
    expect(Date.parse(saved.updatedAt!)).toBeGreaterThanOrEqual(before - 5_000);
    expect(new Date(saved.updatedAt!).toISOString()).toBe(saved.updatedAt);
    expect(await store.get(org, TARGETS_SETTING)).toEqual(saved);
  });

  it('keeps each organisation to its own: a save of one is not seen by another', async () => {
    const [mine, theirs] = [await newOrg(), await newOrg()];
    await store.put(mine, TARGETS_SETTING, LETTUCE);
    expect(await store.get(theirs, TARGETS_SETTING)).toEqual({
      value: DEFAULT_TARGETS,
      updatedAt: null,
      updatedBy: null,
    });
    await store.put(theirs, TARGETS_SETTING, DEFAULT_TARGETS);
    expect((await store.get(mine, TARGETS_SETTING)).value).toEqual(LETTUCE);
  });

  it('refuses a value its schema refuses, naming the field, and writes nothing', async () => {
    const org = await newOrg();
    const bad = { ...LETTUCE, crops: { Lettuce: { germination: 101, usable: null, cv: null } } };
    const error = await refusal(store.put(org, TARGETS_SETTING, bad));
    expect([error.code, error.field, error.message]).toEqual([
      'invalid_input',
      'targets.crops.Lettuce.germination',
      'must be from 0 to 100',
    ]);
    expect((await store.get(org, TARGETS_SETTING)).updatedAt).toBeNull();
  });

  it('refuses a save based on a version a colleague replaced since (409, naming them), and takes one based on the current', async () => {
    const org = await newOrg();
    const { person: ana } = await newMember(store, org);
    const first = await store.put(org, TARGETS_SETTING, DEFAULT_TARGETS, null);
    const second = await store.put(org, TARGETS_SETTING, LETTUCE, first.updatedAt, ana.id);
    expect(second.updatedBy).toEqual({ email: ana.email, name: ana.name });
    expect(Date.parse(second.updatedAt!)).toBeGreaterThan(Date.parse(first.updatedAt!));
    const stale = await refusal(store.put(org, TARGETS_SETTING, DEFAULT_TARGETS, first.updatedAt));
    expect([stale.code, stale.field]).toEqual(['edit_conflict', 'targets']);
    expect(stale.message).toBe(`${ana.name} changed the targets at ${second.updatedAt}; load them again before saving`);
    const firstSave = await refusal(store.put(org, TARGETS_SETTING, DEFAULT_TARGETS, null));
    expect(firstSave.code).toBe('edit_conflict');
    expect((await store.get(org, TARGETS_SETTING)).value).toEqual(LETTUCE);
  });

  it('lets exactly one of two saves from the same version through', async () => {
    const org = await newOrg();
    const base = await store.put(org, TARGETS_SETTING, DEFAULT_TARGETS);
    const results = await Promise.allSettled([
      store.put(org, TARGETS_SETTING, LETTUCE, base.updatedAt),
      store.put(org, TARGETS_SETTING, { ...LETTUCE, crops: {} }, base.updatedAt),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('keeps every saved version, newest first, with who saved it; an entry is found only in its organisation', async () => {
    const org = await newOrg();
    const { person } = await newMember(store, org);
    await store.put(org, TARGETS_SETTING, DEFAULT_TARGETS, undefined, person.id);
    await store.put(org, TARGETS_SETTING, LETTUCE, undefined, person.id);
    const history = await store.history(org, TARGETS_SETTING);
    expect(history.map((h) => [h.value, h.savedBy?.email])).toEqual([
      [LETTUCE, person.email],
      [DEFAULT_TARGETS, person.email],
    ]);
    expect((await store.historyEntry(org, TARGETS_SETTING, history[1]!.id)).value).toEqual(DEFAULT_TARGETS);
    expect((await refusal(store.historyEntry(await newOrg(), TARGETS_SETTING, history[1]!.id))).code).toBe('not_found');
    expect((await refusal(store.historyEntry(org, TARGETS_SETTING, 'x; drop table'))).code).toBe('not_found');
  });

  it('gives saves in quick succession distinct, increasing times', async () => {
    const org = await newOrg();
    const times: number[] = [];
    for (let i = 0; i < 5; i++)
      times.push(Date.parse((await store.put(org, TARGETS_SETTING, DEFAULT_TARGETS)).updatedAt!));
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
    const org = (await newOrganisation(store.current())).id;
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
    const [a, b] = [openStore({ databaseUrl }), openStore({ databaseUrl })];
    await Promise.all([a.warm(), b.warm()]);
    const [demo, other] = [(await newOrganisation(a)).id, (await newOrganisation(b)).id];
    const [fromA, fromB] = await Promise.all([a.get(demo, TARGETS_SETTING), b.get(other, TARGETS_SETTING)]);
    expect([fromA.updatedAt, fromB.updatedAt]).toEqual([null, null]);
    const saved = await a.put(demo, TARGETS_SETTING, LETTUCE);
    expect(await b.get(demo, TARGETS_SETTING)).toEqual(saved);
    expect((await b.get(other, TARGETS_SETTING)).updatedAt).toBeNull();
    await Promise.all([a.close(), b.close()]);
  });

  it('a database that cannot be reached is store_unavailable (503), logged, never an unexplained 500', async () => {
    const port = await freePort();
    const store = openStore({ databaseUrl: `postgres://app@127.0.0.1:${port}/postgres` });
    const error = await refusal(store.get('0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f', TARGETS_SETTING));
    expect([error.code, error.field, error.message]).toEqual([
      'store_unavailable',
      'settings',
      'the settings store is unavailable; try again shortly',
    ]);
    await store.close();
  });
});
