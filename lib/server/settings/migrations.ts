import 'server-only';
import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { freeSlug, slugOf } from '../org/slug';
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
  '0003-organisations-and-people': {
    // Organisations with their credentials, the people who sign in, their roles, sessions and what they did.
    async up(db: Kysely<unknown>) {
      await sql`
        create table organisations (
          id uuid primary key default gen_random_uuid(),
          slug text not null unique,
          name text not null,
          client_id text not null unique,
          secret_ciphertext text,
          secret_set_at timestamptz,
          secret_set_by uuid,
          created_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create table people (
          id uuid primary key default gen_random_uuid(),
          email text not null,
          name text not null default '',
          password_hash text,
          disabled_at timestamptz,
          language text,
          time_zone text,
          default_organisation_id uuid references organisations (id) on delete set null,
          created_at timestamptz not null default now()
        )`.execute(db);
      // One person per address, whatever its case (invites and single sign-on match on it).
      await sql`create unique index people_email on people (lower(email))`.execute(db);
      await sql`alter table organisations add foreign key (secret_set_by) references people (id) on delete set null`.execute(
        db,
      );
      await sql`
        create table memberships (
          person_id uuid not null references people (id) on delete cascade,
          organisation_id uuid not null references organisations (id) on delete cascade,
          role text not null check (role in ('viewer', 'editor', 'admin')),
          created_at timestamptz not null default now(),
          primary key (person_id, organisation_id)
        )`.execute(db);
      await sql`create index memberships_organisation on memberships (organisation_id)`.execute(db);
      await sql`
        create table one_time_links (
          id uuid primary key default gen_random_uuid(),
          person_id uuid not null references people (id) on delete cascade,
          organisation_id uuid not null references organisations (id) on delete cascade,
          kind text not null check (kind in ('invite', 'reset')),
          token_hash text not null unique,
          expires_at timestamptz not null,
          used_at timestamptz,
          created_by uuid references people (id) on delete set null,
          created_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create table sessions (
          id text primary key,
          person_id uuid not null references people (id) on delete cascade,
          created_at timestamptz not null,
          last_seen_at timestamptz not null,
          expires_at timestamptz not null,
          revoked_at timestamptz,
          method text not null check (method in ('password', 'oidc')),
          user_agent text not null default '',
          address text not null default ''
        )`.execute(db);
      await sql`create index sessions_person on sessions (person_id)`.execute(db);
      await sql`
        create table audit_log (
          id bigint generated always as identity primary key,
          at timestamptz not null default clock_timestamp(),
          organisation_id uuid,
          actor_id uuid,
          actor_email text not null default '',
          actor_name text not null default '',
          action text not null,
          subject text not null default '',
          before jsonb,
          after jsonb,
          address text,
          method text
        )`.execute(db);
      await sql`create index audit_log_organisation_at on audit_log (organisation_id, at desc)`.execute(db);
      await sql`create index audit_log_actor_at on audit_log (actor_id, at desc)`.execute(db);
      await sql`
        create table target_history (
          id bigint generated always as identity primary key,
          organisation_id uuid not null references organisations (id) on delete cascade,
          targets jsonb not null,
          saved_at timestamptz not null,
          saved_by uuid references people (id) on delete set null
        )`.execute(db);
      await sql`create index target_history_organisation on target_history (organisation_id, saved_at desc)`.execute(
        db,
      );
    },
  },
  '0004-settings-by-organisation': {
    // Settings and views were keyed by the client ID people signed in with: each such client ID becomes an
    // organisation (no secret yet: provisioning or an administrator sets it), and the rows move to it.
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<{ client_id: string }>`
        select client_id from organisation_settings union select client_id from saved_views order by client_id`.execute(
        db,
      );
      const taken = new Set<string>();
      for (const { client_id } of rows) {
        const slug = freeSlug(slugOf(client_id), (s) => taken.has(s));
        taken.add(slug);
        await sql`insert into organisations (slug, name, client_id) values (${slug}, ${client_id}, ${client_id})`.execute(
          db,
        );
      }
      await sql`
        alter table organisation_settings
          add column organisation_id uuid references organisations (id) on delete cascade,
          add column updated_by uuid references people (id) on delete set null`.execute(db);
      await sql`update organisation_settings s set organisation_id = o.id from organisations o where o.client_id = s.client_id`.execute(
        db,
      );
      await sql`alter table organisation_settings drop constraint organisation_settings_pkey`.execute(db);
      await sql`alter table organisation_settings drop column client_id`.execute(db);
      await sql`alter table organisation_settings alter column organisation_id set not null`.execute(db);
      await sql`alter table organisation_settings add primary key (organisation_id, name)`.execute(db);

      await sql`
        alter table saved_views
          add column organisation_id uuid references organisations (id) on delete cascade,
          add column owner_id uuid references people (id) on delete set null,
          add column shared boolean not null default false`.execute(db);
      // Every view so far was the organisation's, seen by all of it.
      await sql`update saved_views v set organisation_id = o.id, shared = true from organisations o where o.client_id = v.client_id`.execute(
        db,
      );
      await sql`drop index saved_views_name`.execute(db);
      await sql`drop index saved_views_one_default`.execute(db);
      await sql`alter table saved_views drop column client_id`.execute(db);
      await sql`alter table saved_views alter column organisation_id set not null`.execute(db);
      await sql`alter table saved_views add constraint saved_views_default_is_shared check (shared or not is_default)`.execute(
        db,
      );
      // A name once among the organisation's shared views, and once among each person's own.
      await sql`create unique index saved_views_shared_name on saved_views (organisation_id, lower(name)) where shared`.execute(
        db,
      );
      await sql`create unique index saved_views_own_name on saved_views (organisation_id, owner_id, lower(name)) where not shared`.execute(
        db,
      );
      await sql`create unique index saved_views_one_default on saved_views (organisation_id) where is_default`.execute(
        db,
      );
      await sql`create index saved_views_owner on saved_views (owner_id)`.execute(db);
    },
  },
  '0005-alerts': {
    // Alert rules and what the watcher needs to report each finding once, whatever the instances and restarts.
    async up(db: Kysely<unknown>) {
      await sql`
        create table alert_rules (
          id uuid primary key default gen_random_uuid(),
          organisation_id uuid not null references organisations (id) on delete cascade,
          name text not null,
          kind text not null check (kind in ('misses-target', 'warnings', 'control-signal', 'silent')),
          target text,
          signal text,
          crop text,
          search text,
          silent_days integer,
          silent_by text,
          recipients jsonb not null default '[]',
          webhooks jsonb not null default '[]',
          delivery text not null check (delivery in ('immediate', 'hourly', 'daily')),
          digest_hour integer not null default 7 check (digest_hour between 0 and 23),
          paused boolean not null default false,
          unsubscribe_key text not null,
          created_at timestamptz not null default clock_timestamp(),
          created_by uuid references people (id) on delete set null,
          updated_at timestamptz not null default clock_timestamp()
        )`.execute(db);
      await sql`create unique index alert_rules_name on alert_rules (organisation_id, lower(name))`.execute(db);
      await sql`
        create table alert_subscriptions (
          rule_id uuid not null references alert_rules (id) on delete cascade,
          person_id uuid not null references people (id) on delete cascade,
          state text not null check (state in ('subscribed', 'muted')),
          primary key (rule_id, person_id)
        )`.execute(db);
      // One row per organisation watched: how far its batches have been examined, and how its checks go.
      await sql`
        create table alert_watch (
          organisation_id uuid primary key references organisations (id) on delete cascade,
          watermark timestamptz,
          last_check_at timestamptz,
          last_success_at timestamptz,
          failing_since timestamptz,
          failure_reported_at timestamptz,
          last_error text
        )`.execute(db);
      // What each rule has reported, by key (a batch, a crop's signal at a batch, a silence): never twice.
      await sql`
        create table alert_reported (
          rule_id uuid not null references alert_rules (id) on delete cascade,
          key text not null,
          at timestamptz not null default clock_timestamp(),
          primary key (rule_id, key)
        )`.execute(db);
      // What fired: one rule's finding of one check (the message the channels send), kept after the rule goes.
      await sql`
        create table alert_events (
          id uuid primary key default gen_random_uuid(),
          organisation_id uuid not null references organisations (id) on delete cascade,
          rule_id uuid,
          rule_name text not null,
          at timestamptz not null default clock_timestamp(),
          batch_ids jsonb not null default '[]',
          summary text not null default '',
          message jsonb not null
        )`.execute(db);
      await sql`create index alert_events_organisation_at on alert_events (organisation_id, at desc)`.execute(db);
      // Each event to each recipient on each channel: waiting (now, or for a digest), delivered, or failed; read (in-app).
      await sql`
        create table alert_deliveries (
          id bigint generated always as identity primary key,
          event_id uuid not null references alert_events (id) on delete cascade,
          organisation_id uuid not null references organisations (id) on delete cascade,
          channel text not null check (channel in ('email', 'webhook', 'in-app')),
          recipient text not null,
          person_id uuid references people (id) on delete cascade,
          webhook jsonb,
          state text not null check (state in ('pending', 'digest', 'delivered', 'failed')),
          digest text check (digest in ('hourly', 'daily')),
          due_at timestamptz not null default clock_timestamp(),
          attempts integer not null default 0,
          detail text,
          delivered_at timestamptz,
          read_at timestamptz,
          created_at timestamptz not null default clock_timestamp()
        )`.execute(db);
      await sql`create index alert_deliveries_due on alert_deliveries (due_at) where state in ('pending', 'digest')`.execute(
        db,
      );
      await sql`create index alert_deliveries_organisation on alert_deliveries (organisation_id, created_at desc)`.execute(
        db,
      );
      await sql`create index alert_deliveries_unread on alert_deliveries (person_id) where channel = 'in-app' and read_at is null`.execute(
        db,
      );
      await sql`create index alert_deliveries_event on alert_deliveries (event_id)`.execute(db);
    },
  },
  '0006-report-schedules': {
    // A saved view sent by e-mail on a schedule: one per view, gone with the view. `next_run_at` is the claim
    // instances race for (a compare-and-set on it runs each report once), indexed for the due ones.
    async up(db: Kysely<unknown>) {
      await sql`
        create table report_schedules (
          view_id uuid primary key references saved_views (id) on delete cascade,
          organisation_id uuid not null references organisations (id) on delete cascade,
          cadence text not null check (cadence in ('daily', 'weekly', 'monthly')),
          weekday smallint check (weekday between 1 and 7),
          day_of_month smallint check (day_of_month between 1 and 28),
          time text not null,
          time_zone text not null,
          recipients jsonb not null,
          language text check (language in ('en', 'de', 'nl')),
          next_run_at timestamptz not null,
          last_run_at timestamptz,
          last_result text,
          updated_by uuid references people (id) on delete set null,
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index report_schedules_due on report_schedules (next_run_at)`.execute(db);
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

/** Brings the schema to the migration named (tests of a later migration start from a database of its time). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateTo(name);
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
export async function executedMigrations(db: Kysely<any>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    if (isUndefinedTable(error)) return [];
    throw error;
  }
}
