import 'server-only';
import { Kysely, PostgresDialect, sql, type ColumnType, type Generated } from 'kysely';
import pg from 'pg';
import { logLine } from '../logging';
import { countDatabaseError } from '../metrics/errors';
import { querySpan } from '../tracing/spans';
import { pglitePool, type SqlExecutor } from './pglite-pool';

type Timestamp = ColumnType<Date, Date | undefined, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;
/** JSON written as text (one form for pg and PGlite alike), read back parsed. */
type Json = ColumnType<unknown, string, string>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;

/** One row per organisation and setting: the value as the setting's schema validated it. */
export type OrganisationSettingsTable = {
  organisation_id: string;
  name: string;
  value: Json;
  /** Set by the database's clock, never by an instance's (instances' clocks differ). */
  updated_at: ColumnType<Date, Date, Date>;
  /** Who saved it last (null: before people, or someone since removed). */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
};

/** One row per saved view: two people saving different views never write the same row. */
export type SavedViewsTable = {
  id: Generated<string>;
  organisation_id: string;
  /** The person who keeps it; null: the organisation's (its owner was removed, or it predates people). */
  owner_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Seen by everyone in the organisation (always true for the default view). */
  shared: ColumnType<boolean, boolean | undefined, boolean>;
  name: string;
  query: string;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: ColumnType<Date, Date, Date>;
};

/** An organisation: its Batch Data Service client ID and the secret, encrypted at rest (lib/server/org/credentials-crypto.ts). */
export type OrganisationsTable = {
  id: Generated<string>;
  slug: string;
  name: string;
  client_id: string;
  secret_ciphertext: ColumnType<string | null, string | null | undefined, string | null>;
  secret_set_at: NullableTimestamp;
  secret_set_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
};

export type PeopleTable = {
  id: Generated<string>;
  email: string;
  name: ColumnType<string, string | undefined, string>;
  /** argon2id (PHC string); null: no password yet (invited) or single sign-on only. */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  disabled_at: NullableTimestamp;
  language: ColumnType<string | null, string | null | undefined, string | null>;
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  default_organisation_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
};

export type Role = 'viewer' | 'editor' | 'admin';

export type MembershipsTable = {
  person_id: string;
  organisation_id: string;
  role: Role;
  created_at: Timestamp;
};

/** Invite and reset links: only the SHA-256 of the token is kept. */
export type OneTimeLinksTable = {
  id: Generated<string>;
  person_id: string;
  organisation_id: string;
  kind: 'invite' | 'reset';
  token_hash: string;
  expires_at: Date;
  used_at: NullableTimestamp;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
};

/** The server's record of every session: the cookie holds only its id. */
export type SessionsTable = {
  id: string;
  person_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: NullableTimestamp;
  method: 'password' | 'oidc';
  user_agent: string;
  address: string;
};

export type AuditLogTable = {
  id: Generated<string>;
  at: Timestamp;
  organisation_id: string | null;
  actor_id: string | null;
  actor_email: string;
  actor_name: string;
  action: string;
  subject: string;
  before: NullableJson;
  after: NullableJson;
  address: string | null;
  method: string | null;
};

/** Every target set an organisation saved, newest last: the Targets panel's History and Restore. */
export type TargetHistoryTable = {
  id: Generated<string>;
  organisation_id: string;
  targets: Json;
  saved_at: Date;
  saved_by: string | null;
};

/** An alert rule of an organisation (lib/server/alerts/alerts-store.ts); webhooks hold their secrets encrypted. */
export type AlertRulesTable = {
  id: Generated<string>;
  organisation_id: string;
  name: string;
  kind: string;
  target: string | null;
  signal: string | null;
  crop: string | null;
  search: string | null;
  silent_days: number | null;
  silent_by: string | null;
  recipients: Json;
  webhooks: Json;
  delivery: string;
  digest_hour: number;
  paused: boolean;
  /** Signs the unsubscribe links of the rule's outside addresses. */
  unsubscribe_key: string;
  created_at: Timestamp;
  created_by: string | null;
  updated_at: Timestamp;
};

export type AlertSubscriptionsTable = { rule_id: string; person_id: string; state: 'subscribed' | 'muted' };

/** How far an organisation's batches have been watched, and how its checks go. */
export type AlertWatchTable = {
  organisation_id: string;
  watermark: NullableTimestamp;
  last_check_at: NullableTimestamp;
  last_success_at: NullableTimestamp;
  failing_since: NullableTimestamp;
  failure_reported_at: NullableTimestamp;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
};

export type AlertReportedTable = { rule_id: string; key: string; at: Timestamp };

export type AlertEventsTable = {
  id: Generated<string>;
  organisation_id: string;
  rule_id: string | null;
  rule_name: string;
  at: Timestamp;
  batch_ids: Json;
  summary: string;
  message: Json;
};

export type AlertDeliveriesTable = {
  id: Generated<string>;
  event_id: string;
  organisation_id: string;
  channel: 'email' | 'webhook' | 'in-app';
  recipient: string;
  person_id: string | null;
  /** A webhook delivery's hook as it was when the event fired: url, format, the secret's ciphertext. */
  webhook: NullableJson;
  state: 'pending' | 'digest' | 'delivered' | 'failed';
  digest: 'hourly' | 'daily' | null;
  due_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  detail: ColumnType<string | null, string | null | undefined, string | null>;
  delivered_at: NullableTimestamp;
  read_at: NullableTimestamp;
  created_at: Timestamp;
};

/** A saved view's report schedule (one per view, deleted with it): when it runs next and how the last run went. */
export type ReportSchedulesTable = {
  view_id: string;
  organisation_id: string;
  cadence: 'daily' | 'weekly' | 'monthly';
  weekday: number | null;
  day_of_month: number | null;
  time: string;
  time_zone: string;
  recipients: Json;
  language: 'en' | 'de' | 'nl' | null;
  next_run_at: Date;
  last_run_at: NullableTimestamp;
  last_result: ColumnType<string | null, string | null | undefined, string | null>;
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
};

export type SettingsTables = {
  organisation_settings: OrganisationSettingsTable;
  saved_views: SavedViewsTable;
  organisations: OrganisationsTable;
  people: PeopleTable;
  memberships: MembershipsTable;
  one_time_links: OneTimeLinksTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  target_history: TargetHistoryTable;
  alert_rules: AlertRulesTable;
  alert_subscriptions: AlertSubscriptionsTable;
  alert_watch: AlertWatchTable;
  alert_reported: AlertReportedTable;
  alert_events: AlertEventsTable;
  alert_deliveries: AlertDeliveriesTable;
  report_schedules: ReportSchedulesTable;
};
export type SettingsDb = Kysely<SettingsTables>;

/** PostgreSQL at `databaseUrl` (any number of instances), else the embedded PGlite in `dataDir` (one instance). */
export type DatabasePlace = { databaseUrl: string } | { dataDir: string };

/** A request waits this long for a PostgreSQL connection or a statement, then the store is "unavailable". */
const CONNECT_TIMEOUT_MS = 3000;
const STATEMENT_TIMEOUT_MS = 5000;

/** The embedded database's SQL, for the job runner, by the Kysely instance that holds it. */
const embedded = new WeakMap<SettingsDb, SqlExecutor>();

/** The settings database at `place`. Nothing connects until the first query. */
export function openDatabase(place: DatabasePlace): SettingsDb {
  const embeddedPool = 'databaseUrl' in place ? undefined : pglitePool(place.dataDir);
  const pool = embeddedPool ?? postgresPool((place as { databaseUrl: string }).databaseUrl);
  // Every statement as a span of the request it serves (a no-op unless traces are recorded).
  const db = new Kysely<SettingsTables>({ dialect: new PostgresDialect({ pool }), log: querySpan });
  if (embeddedPool) embedded.set(db, embeddedPool.executeSql);
  return db;
}

/**
 * The embedded database's own SQL executor (it takes turns with the store's statements on its one
 * connection), or undefined on PostgreSQL, where a job library opens connections of its own.
 */
export const embeddedSql = (db: SettingsDb): SqlExecutor | undefined => embedded.get(db);

function postgresPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 1000,
    idleTimeoutMillis: 30_000,
    application_name: 'tray-scan-dashboard',
  });
  // An idle connection the server drops (a restart, a failover) emits here; unheard, it would end the process.
  pool.on('error', (error) => {
    countDatabaseError('unreachable');
    logLine('warn', 'settings database: an idle connection failed', { error: String(error) });
  });
  return pool;
}

/** SQLSTATE classes and Node codes that mean "the database cannot be reached or is going away", not a bug of ours. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** True for a failure to reach the database (a 503 to people), false for anything else (a bug: 500). */
export function isUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout/i.test(
      message,
    )
  );
}

/**
 * The store's guard around every statement: migrations first, an unreachable database as `store_unavailable`
 * (503) naming `field` (the settings, the session…).
 */
export type Guard = <R>(work: () => Promise<R>, field?: string) => Promise<R>;

/** One instant per statement, cut to milliseconds so that a time that went through JSON compares equal. */
export const STATEMENT_TIME = sql<Date>`date_trunc('milliseconds', statement_timestamp())`;
/** The database's clock now, cut to milliseconds. */
export const NOW = sql<Date>`date_trunc('milliseconds', clock_timestamp())`;
/** The shape of a uuid: anything else is no id of ours, and never reaches the database's parser. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A table the query names does not exist (SQLSTATE 42P01): the database was dropped and created again. */
export function isUndefinedTable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '42P01';
}
