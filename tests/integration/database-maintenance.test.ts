import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Targets } from '@/lib/contract/targets';
import { TARGETS_SETTING, type DatabasePlace, type SettingsStore } from '@/lib/server/settings';
import { openDatabase } from '@/lib/server/settings/database';
import { newOrganisation, openStore } from '../helpers/store';
import { backupEmbedded, DataDirInUseError, restoreEmbedded } from '@/lib/server/settings/maintenance/embedded-backup';
import { migrationStatus } from '@/lib/server/settings/maintenance/migration-status';
import { MIGRATION_NAMES, migrateToLatest } from '@/lib/server/settings/migrations';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';

/**
 * The runbook's database steps (docs/operations.md), as an operator runs them: back up, change the settings,
 * restore, and see the settings of the backup, on the embedded database and on PostgreSQL.
 */
const BEFORE: Targets = { general: { germination: 88, usable: 80, cv: 25 }, crops: {} };
const AFTER: Targets = { general: { germination: 70, usable: 60, cv: null }, crops: {} };
/** The organisation whose targets each test saves (made in the test's own database). */
let ORG: string;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'db-maintenance-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Opens the store at `place`, does `work`, closes it (the instance stopped, as the runbook has it). */
async function withStore<T>(place: DatabasePlace, work: (store: SettingsStore) => Promise<T>): Promise<T> {
  const store = openStore(place);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

describe('the embedded database: db:backup and db:restore with the instance stopped', () => {
  it('a backup taken before a change brings the old settings back; the replaced database is kept beside', async () => {
    const dataDir = path.join(dir, 'settings');
    const file = path.join(dir, 'backups', 'settings.tar.gz');
    ORG = (await withStore({ dataDir }, (store) => newOrganisation(store))).id;
    await withStore({ dataDir }, (store) => store.put(ORG, TARGETS_SETTING, BEFORE));
    expect(await backupEmbedded(dataDir, file)).toBeGreaterThan(0);
    await withStore({ dataDir }, (store) => store.put(ORG, TARGETS_SETTING, AFTER));
    expect((await withStore({ dataDir }, (store) => store.get(ORG, TARGETS_SETTING))).value).toEqual(AFTER);

    const kept = await restoreEmbedded(dataDir, file, { now: new Date('2026-11-26T10:00:00Z') });
    expect(kept).toBe(`${dataDir}.before-restore-2026-11-26T10-00-00-000Z`);
    expect((await withStore({ dataDir }, (store) => store.get(ORG, TARGETS_SETTING))).value).toEqual(BEFORE);
    // What was replaced is still there, untouched, until the operator removes it.
    expect((await withStore({ dataDir: kept! }, (store) => store.get(ORG, TARGETS_SETTING))).value).toEqual(AFTER);
    // The embedded database is opened six times, each opening seconds on a busy machine.
  }, 180_000);

  it('refuses while an instance has the directory open, and says how to go on', async () => {
    const dataDir = path.join(dir, 'open');
    const store = openStore({ dataDir });
    try {
      ORG = (await newOrganisation(store)).id;
      await store.put(ORG, TARGETS_SETTING, BEFORE);
      await expect(backupEmbedded(dataDir, path.join(dir, 'open.tar.gz'))).rejects.toThrow(DataDirInUseError);
      await expect(restoreEmbedded(dataDir, path.join(dir, 'open.tar.gz'))).rejects.toThrow(
        /stop the dashboard first.*--force/,
      );
    } finally {
      await store.close();
    }
    expect(existsSync(path.join(dir, 'open.tar.gz'))).toBe(false);
  }, 120_000);
});

describe('db:status and db:migrate', () => {
  it('names what is applied, what is pending and what a newer release applied', async () => {
    const db = openDatabase({ dataDir: path.join(dir, 'status') });
    try {
      expect(await migrationStatus(db)).toEqual({ applied: [], pending: MIGRATION_NAMES, unknown: [] });
      await migrateToLatest(db);
      expect(await migrationStatus(db)).toEqual({ applied: MIGRATION_NAMES, pending: [], unknown: [] });
      await db
        .insertInto('kysely_migration' as never)
        .values({ name: '9999-from-a-newer-release', timestamp: new Date().toISOString() } as never)
        .execute();
      expect((await migrationStatus(db)).unknown).toEqual(['9999-from-a-newer-release']);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});

describe('PostgreSQL: the runbook’s pg_dump -Fc and pg_restore, with the app running', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());
  const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

  it('a dump taken before a change, restored with --clean over the running app, brings the old settings back', async () => {
    const url = await server.createDatabase('dashboard');
    const file = path.join(dir, 'dashboard.dump');
    const store = openStore({ databaseUrl: url });
    try {
      ORG = (await newOrganisation(store)).id;
      await store.put(ORG, TARGETS_SETTING, BEFORE);
      execFileSync(`${BIN}/pg_dump`, ['-Fc', '--no-owner', '-f', file, url]);
      const saved = await store.get(ORG, TARGETS_SETTING);
      await store.put(ORG, TARGETS_SETTING, AFTER, saved.updatedAt);
      execFileSync(`${BIN}/pg_restore`, [
        '--clean',
        '--if-exists',
        '--no-owner',
        '--single-transaction',
        '-d',
        url,
        file,
      ]);
      // The running store reads the restored rows: no restart.
      expect((await store.get(ORG, TARGETS_SETTING)).value).toEqual(BEFORE);
      const client = new pg.Client(url);
      await client.connect();
      const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name');
      await client.end();
      expect(rows.map((r) => r.name)).toEqual(MIGRATION_NAMES);
    } finally {
      await store.close();
    }
  });
});
