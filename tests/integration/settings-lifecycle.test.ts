import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS, type Targets } from '@/lib/contract/targets';
import { randomUUID } from 'node:crypto';
import { TARGETS_SETTING } from '@/lib/server/settings';
import { MIGRATION_NAMES } from '@/lib/server/settings/migrations';
import { logsOf } from '../helpers/logs';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { refusal } from '../helpers/refusal';
import { newOrganisation, openStore } from '../helpers/store';

/** What operators do to a database under a running app: restore it into a new one, roll the app back. */
const LETTUCE: Targets = { general: { germination: 88, usable: 80, cv: null }, crops: {} };

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());

async function admin(sql: string): Promise<void> {
  const client = new pg.Client(server.url());
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('the settings store across a restore and a rollback, without a restart', () => {
  it('a database dropped and created again (a restore into a new one) is migrated again: no 500s, no restart', async () => {
    const url = await server.createDatabase('recreated');
    const store = openStore({ databaseUrl: url });
    try {
      const org = (await newOrganisation(store)).id;
      await store.put(org, TARGETS_SETTING, LETTUCE);
      // The store's connections are ended by the drop, as a restore with --clean or a re-created database does.
      await admin('drop database recreated with (force)');
      await admin('create database recreated');
      // The first request may meet a connection the drop ended (503, tried again); none is a 500.
      const first = await store.get(org, TARGETS_SETTING).catch((error: unknown) => error);
      if (first instanceof Error) expect(first).toMatchObject({ code: 'store_unavailable' });
      expect(await store.get(org, TARGETS_SETTING)).toEqual({
        value: DEFAULT_TARGETS,
        updatedAt: null,
        updatedBy: null,
      });
      expect(await store.state()).toBe('ok');
      // The new database is empty, organisations too: one made now keeps what it saves.
      const again = (await newOrganisation(store)).id;
      expect((await store.put(again, TARGETS_SETTING, LETTUCE)).value).toEqual(LETTUCE);
    } finally {
      await store.close();
    }
  });

  it('a database a newer release migrated is refused (503, readiness "unknown-migration"), logged once naming the migration, and served again once restored', async () => {
    const url = await server.createDatabase('newer');
    const store = openStore({ databaseUrl: url });
    try {
      const org = (await newOrganisation(store)).id;
      await store.put(org, TARGETS_SETTING, LETTUCE);
      // What the next release's migrations leave behind: a row this release has no migration for.
      const client = new pg.Client(url);
      await client.connect();
      await client.query(
        `insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-release', now()::text)`,
      );

      // A running instance finds out at its next readiness probe; one started after the upgrade, at once.
      const started = openStore({ databaseUrl: url });
      const lines = await logsOf(async () => {
        expect(await store.state()).toBe('unknown-migration');
        for (const instance of [store, started]) {
          const error = await refusal(instance.get(org, TARGETS_SETTING));
          expect([error.code, error.field]).toEqual(['store_unavailable', 'settings']);
          await refusal(instance.put(org, TARGETS_SETTING, DEFAULT_TARGETS));
        }
        expect(await started.state()).toBe('unknown-migration');
      });
      const named = lines.filter(
        (l) => l.msg === 'settings database was migrated by a newer release: this instance stays unready',
      );
      // Once per instance, not once per request.
      expect(named).toEqual(
        [store, started].map(() =>
          expect.objectContaining({
            level: 'error',
            unknownMigrations: ['9999-from-a-newer-release'],
            knownMigrations: MIGRATION_NAMES,
          }),
        ),
      );
      // Nothing was written while refused.
      expect(
        (await client.query('select value from organisation_settings where organisation_id = $1', [org])).rows,
      ).toEqual([{ value: LETTUCE }]);

      // The database restored to this release's schema: served again, without a restart.
      await client.query(`delete from kysely_migration where name = '9999-from-a-newer-release'`);
      await client.end();
      for (const instance of [store, started]) {
        expect(await instance.state()).toBe('ok');
        expect((await instance.get(org, TARGETS_SETTING)).value).toEqual(LETTUCE);
      }
      await started.close();
    } finally {
      await store.close();
    }
  });

  it('an unreachable database is "unreachable" to readiness, and a 503 to people', async () => {
    const store = openStore({ databaseUrl: `postgres://app@127.0.0.1:${server.port + 1}/none` });
    try {
      expect(await store.state()).toBe('unreachable');
      expect(await refusal(store.get(randomUUID(), TARGETS_SETTING))).toMatchObject({ code: 'store_unavailable' });
    } finally {
      await store.close();
    }
  });
});
