import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';

/**
 * `npm run db:*` as docs/operations.md has an operator run them, against the build: the embedded database in a
 * directory of its own, and PostgreSQL (whose password never appears in what they print).
 */
const npmRun = (args: string[], env: Record<string, string>) => {
  const { status, stdout, stderr } = spawnSync('npm', ['run', '--silent', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status, output: `${stdout}${stderr}` };
};

test('embedded database: status, migrate, backup and restore, with the exit codes a script can act on', async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'db-scripts-'));
  const env = { SETTINGS_DATA_DIR: path.join(dir, 'settings'), DATABASE_URL: '' };
  try {
    const fresh = npmRun(['db:status'], env);
    expect(fresh.status).toBe(1);
    expect(fresh.output).toMatch(/applied: none\npending: 0001-/);
    const migrated = npmRun(['db:migrate'], env);
    expect([migrated.status, migrated.output]).toEqual([0, expect.stringMatching(/applied 0001-/)]);
    expect(npmRun(['db:migrate'], env).output).toMatch(/up to date, nothing to apply/);
    expect(npmRun(['db:status'], env).status).toBe(0);

    const file = path.join(dir, 'backups', 'settings.tar.gz');
    const backup = npmRun(['db:backup', '--', file], env);
    expect(backup.status).toBe(0);
    expect(existsSync(file)).toBe(true);
    const restore = npmRun(['db:restore', '--', file], env);
    expect(restore.status).toBe(0);
    expect(restore.output).toMatch(/the one it replaced is kept in .*settings\.before-restore-/);
    expect(npmRun(['db:status'], env).status).toBe(0);

    const usage = npmRun(['db:backup'], env);
    expect([usage.status, usage.output.trim()]).toEqual([64, 'db: backup needs a FILE']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL: a database a newer release migrated is named as such (exit 2), and no password is printed', async () => {
  test.setTimeout(120_000);
  const server: PostgresServer = await startPostgres();
  try {
    const url = (await server.createDatabase('scripts')).replace('postgres://app@', 'postgres://app:not-printed-pw@');
    const env = { DATABASE_URL: url };
    expect(npmRun(['db:migrate'], env).status).toBe(0);
    const client = new pg.Client(url);
    await client.connect();
    await client.query(
      `insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-release', now()::text)`,
    );
    await client.end();
    const status = npmRun(['db:status'], env);
    expect(status.status).toBe(2);
    expect(status.output).toMatch(/^PostgreSQL 127\.0\.0\.1:\d+\/scripts$/m);
    expect(status.output).toMatch(/unknown: 9999-from-a-newer-release \(a newer release migrated this database/);
    expect(status.output).not.toContain('not-printed-pw');
    const backup = npmRun(['db:backup', '--', '/tmp/never.tar.gz'], env);
    expect(backup.status).toBe(64);
    expect(backup.output).toMatch(/for PostgreSQL use pg_dump -Fc \/ pg_restore/);
  } finally {
    await server.stop();
  }
});
