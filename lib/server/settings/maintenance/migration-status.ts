import 'server-only';
import type { Kysely } from 'kysely';
import { executedMigrations, MIGRATION_NAMES } from '../migrations';

/** The schema against this release: what it applied, what it would apply, what a newer release applied. */
export type MigrationStatus = { applied: string[]; pending: string[]; unknown: string[] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrationStatus(db: Kysely<any>): Promise<MigrationStatus> {
  const executed = await executedMigrations(db);
  return {
    applied: MIGRATION_NAMES.filter((name) => executed.includes(name)),
    pending: MIGRATION_NAMES.filter((name) => !executed.includes(name)),
    unknown: executed.filter((name) => !MIGRATION_NAMES.includes(name)),
  };
}
