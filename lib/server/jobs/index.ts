import 'server-only';
import { getConfig } from '../config';
import { settingsStore } from '../settings';
import { embeddedSql } from '../settings/database';
import { PgBossRunner } from './pg-boss-runner';
import type { JobRunner } from './runner';

export type { JobRunner } from './runner';

const holder = globalThis as unknown as { __jobRunner?: JobRunner };

/**
 * The process's job runner: pg-boss on DATABASE_URL's PostgreSQL (any number of instances, each job once), or
 * pg-boss on the embedded database through the store's own connection (one instance).
 */
export function jobRunner(): JobRunner {
  if (!holder.__jobRunner) {
    const { databaseUrl } = getConfig();
    const executeSql = databaseUrl ? undefined : embeddedSql(settingsStore().db);
    holder.__jobRunner = new PgBossRunner(
      databaseUrl ? { connectionString: databaseUrl } : { executeSql: executeSql! },
    );
  }
  return holder.__jobRunner;
}

/** Stops the runner if this process started one: running jobs finish first (at shutdown, before the store closes). */
export async function stopJobRunner(): Promise<void> {
  const runner = holder.__jobRunner;
  holder.__jobRunner = undefined;
  await runner?.stop();
}
