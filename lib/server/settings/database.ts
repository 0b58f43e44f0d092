import 'server-only';
import { Kysely, PostgresDialect, type ColumnType, type Generated } from 'kysely';
import pg from 'pg';
import { logLine } from '../log';
import { countDatabaseError } from '../metrics/errors';
import { querySpan } from '../tracing/spans';
import { pglitePool } from './pglite-pool';

/** One row per organisation and setting: the value as the setting's schema validated it. */
export type OrganisationSettingsTable = {
  client_id: string;
  name: string;
  /** Written as JSON text (one form for pg and PGlite alike), read back parsed. */
  value: ColumnType<unknown, string, string>;
  /** Set by the database's clock, never by an instance's (instances' clocks differ). */
  updated_at: ColumnType<Date, Date, Date>;
};

/** One row per saved view: two people saving different views never write the same row. */
export type SavedViewsTable = {
  id: Generated<string>;
  client_id: string;
  name: string;
  query: string;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: ColumnType<Date, Date, Date>;
};

export type SettingsTables = { organisation_settings: OrganisationSettingsTable; saved_views: SavedViewsTable };
export type SettingsDb = Kysely<SettingsTables>;

/** PostgreSQL at `databaseUrl` (any number of instances), else the embedded PGlite in `dataDir` (one instance). */
export type DatabasePlace = { databaseUrl: string } | { dataDir: string };

/** A request waits this long for a PostgreSQL connection or a statement, then the store is "unavailable". */
const CONNECT_TIMEOUT_MS = 3000;
const STATEMENT_TIMEOUT_MS = 5000;

/** The settings database at `place`. Nothing connects until the first query. */
export function openDatabase(place: DatabasePlace): SettingsDb {
  const pool = 'databaseUrl' in place ? postgresPool(place.databaseUrl) : pglitePool(place.dataDir);
  // Every statement as a span of the request it serves (a no-op unless traces are recorded).
  return new Kysely<SettingsTables>({ dialect: new PostgresDialect({ pool }), log: querySpan });
}

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
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EPIPE', '57P01', '57P02', '57P03', '53300']);

/** True for a failure to reach the database (a 503 to people), false for anything else (a bug: 500). */
export function isUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Query read timeout|canceling statement due to statement timeout/i.test(message);
}

/** A table the query names does not exist (SQLSTATE 42P01): the database was dropped and created again. */
export function isUndefinedTable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '42P01';
}
