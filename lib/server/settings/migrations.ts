import 'server-only';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

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

/**
 * Brings the schema to the latest version. Safe when several instances start together against one
 * PostgreSQL: Kysely's Migrator takes an advisory lock, and the second instance finds the work done.
 */
// Kysely<any> as the Migrator itself takes it: a migration sees the schema of its own time, not ours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error;
}

export const MIGRATION_NAMES = Object.keys(MIGRATIONS);
