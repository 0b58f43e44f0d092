import 'server-only';
import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isUndefinedTable } from './database';

/**
 * The settings schema, one version at a time. Names sort in the order they apply; a released migration is
 * never edited, a change is a new entry. In code rather than files: the build bundles them, and `next start`
 * has no migrations folder to find.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-organisation-settings': {
    // Generic on purpose: targets now, saved views later, each a named JSON value per organisation.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('organisation_settings')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('organisation_settings_pkey', ['client_id', 'name'])
        .execute();
    },
  },
  '0002-saved-views': {
    // Rows rather than one JSON value: two people saving different views at once never conflict.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('saved_views')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // The rules the store checks, kept by the database too: a name once per organisation whatever its
      // case, and at most one default per organisation.
      await sql`create unique index saved_views_name on saved_views (client_id, lower(name))`.execute(db);
      await sql`create unique index saved_views_one_default on saved_views (client_id) where is_default`.execute(db);
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export const MIGRATION_NAMES = Object.keys(MIGRATIONS);

/**
 * The database holds migrations this release does not know: a newer release migrated it (this one is a
 * rollback). Serving it could corrupt what the newer schema means, so the store refuses until the newer
 * release runs again or the database is restored to this release's schema.
 */
export class UnknownMigrationsError extends Error {
  constructor(readonly names: string[]) {
    super(`the settings database has migrations this release does not know: ${names.join(', ')}`);
  }
}

/**
 * Brings the schema to the latest version. Safe when several instances start together against one
 * PostgreSQL: Kysely's Migrator takes an advisory lock, and the second instance finds the work done.
 * Throws UnknownMigrationsError, changing nothing, when a newer release has migrated the database.
 */
// Kysely<any> as the Migrator itself takes it: a migration sees the schema of its own time, not ours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  if ((await schemaState(db)) === 'current') return;
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error;
}

/**
 * The schema against this release's migrations, in one query: `current` (all applied, nothing more) or
 * `behind` (some to apply: an older release's database, or one created again). Throws UnknownMigrationsError
 * when a newer release has migrated it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function schemaState(db: Kysely<any>): Promise<'current' | 'behind'> {
  const executed = await executedMigrations(db);
  const unknown = executed.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length > 0) throw new UnknownMigrationsError(unknown);
  return MIGRATION_NAMES.every((name) => executed.includes(name)) ? 'current' : 'behind';
}

/** The names in Kysely's own record of applied migrations; none on a database never migrated. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function executedMigrations(db: Kysely<any>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    if (isUndefinedTable(error)) return [];
    throw error;
  }
}
