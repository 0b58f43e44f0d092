import 'server-only';
import { sql } from 'kysely';
import { safeParse, type core } from 'zod';
import { AppError, invalidInput } from '../app-error';
import { logLine } from '../log';
import { countDatabaseError } from '../metrics/errors';
import { isUndefinedTable, isUnreachable, openDatabase, type DatabasePlace, type SettingsDb } from './database';
import { MIGRATION_NAMES, migrateToLatest, schemaState, UnknownMigrationsError } from './migrations';
import { SavedViewsStore } from './saved-views-store';

/** One kind of organisation setting: its row name, what a valid value is, and what applies before any save. */
export type Setting<T> = { name: string; schema: core.$ZodType<T>; fallback: T };

/** The database as readiness sees it: `unknown-migration` when a newer release migrated it. */
export type DatabaseState = 'ok' | 'unreachable' | 'unknown-migration' | 'error';

/** A setting's value and when it last changed (ISO 8601, milliseconds; null: never saved, the fallback applies). */
export type Saved<T> = { value: T; updatedAt: string | null };

// The database's clock, cut to milliseconds so an `updatedAt` that went through JSON compares equal to the stored
// one; a save never reuses its predecessor's instant, so every version has its own `updatedAt`.
const NOW = sql<Date>`date_trunc('milliseconds', clock_timestamp())`;
const AFTER_CURRENT = sql<Date>`greatest(date_trunc('milliseconds', clock_timestamp()), organisation_settings.updated_at + interval '1 millisecond')`;

/**
 * The organisations' settings: a value per (client ID, setting), validated with the setting's zod schema on
 * the way in and out. Every call names the organisation: there is no query across organisations. The schema
 * is brought up to date once per store, before its first query (single flight; a failed attempt is retried
 * by the next call). A database that cannot be reached is an AppError `store_unavailable` (503).
 */
export class SettingsStore {
  #ready: Promise<void> | undefined;
  /** The unknown migrations last logged, so that a rollback is logged once, not on every request. */
  #unknownLogged = '';
  /** The organisations' saved views: rows of their own, behind the same migrations and the same guard. */
  readonly views: SavedViewsStore;

  constructor(private readonly db: SettingsDb) {
    this.views = new SavedViewsStore(db, (work) => this.#guard(work));
  }

  static open(place: DatabasePlace): SettingsStore {
    return new SettingsStore(openDatabase(place));
  }

  /**
   * Opens the database and runs the migrations now rather than on the first request (PGlite's first start in
   * a new directory takes seconds). A failure is logged and left for the first request to meet again.
   */
  async warm(): Promise<void> {
    await this.#guard(async () => undefined).catch((error: unknown) => {
      logLine('warn', 'settings store: not ready at start-up; requests will try again', { error: String(error) });
    });
  }

  async get<T>(clientId: string, setting: Setting<T>): Promise<Saved<T>> {
    const row = await this.#guard(() =>
      this.db
        .selectFrom('organisation_settings')
        .select(['value', 'updated_at'])
        .where('client_id', '=', clientId)
        .where('name', '=', setting.name)
        .executeTakeFirst(),
    );
    return row ? savedOf(setting, row) : { value: setting.fallback, updatedAt: null };
  }

  /**
   * Saves `value` (validated here, whoever calls) for the organisation. `expectedUpdatedAt`: the version the
   * editor started from (null: nothing saved yet); when another save came since, nothing is written and the
   * answer is an `edit_conflict` naming when. Absent: the save replaces whatever is there.
   */
  async put<T>(clientId: string, setting: Setting<T>, value: unknown, expectedUpdatedAt?: string | null): Promise<Saved<T>> {
    const parsed = safeParse(setting.schema, value);
    if (!parsed.success) throw invalidInput(parsed.error, setting.name, setting.name);
    if (typeof expectedUpdatedAt === 'string' && Number.isNaN(Date.parse(expectedUpdatedAt))) {
      throw new AppError('invalid_input', 'must be the updatedAt the edit started from', { field: 'expectedUpdatedAt' });
    }
    const row = await this.#guard(() => this.#write(clientId, setting.name, JSON.stringify(parsed.data), expectedUpdatedAt));
    if (row) return savedOf(setting, row);
    const current = await this.get(clientId, setting);
    throw new AppError(
      'edit_conflict',
      current.updatedAt === null
        ? `nothing was saved at ${expectedUpdatedAt}; load the ${setting.name} again before saving`
        : `a colleague changed the ${setting.name} at ${current.updatedAt}; load them again before saving`,
      { field: setting.name },
    );
  }

  /** Closes the connections (the pool, or the embedded database, which then writes everything out). */
  close(): Promise<void> {
    return this.db.destroy();
  }

  /** One statement each way, so that two saves racing cannot both pass the check. */
  #write(clientId: string, name: string, json: string, expected: string | null | undefined) {
    const row = { client_id: clientId, name, value: json, updated_at: NOW };
    const returning = ['value', 'updated_at'] as const;
    if (expected === undefined) {
      return this.db
        .insertInto('organisation_settings')
        .values(row)
        .onConflict((oc) => oc.columns(['client_id', 'name']).doUpdateSet({ value: (eb) => eb.ref('excluded.value'), updated_at: AFTER_CURRENT }))
        .returning(returning)
        .executeTakeFirst();
    }
    if (expected === null) {
      return this.db
        .insertInto('organisation_settings')
        .values(row)
        .onConflict((oc) => oc.columns(['client_id', 'name']).doNothing())
        .returning(returning)
        .executeTakeFirst();
    }
    return this.db
      .updateTable('organisation_settings')
      .set({ value: json, updated_at: AFTER_CURRENT })
      .where('client_id', '=', clientId)
      .where('name', '=', name)
      .where('updated_at', '=', new Date(expected))
      .returning(returning)
      .executeTakeFirst();
  }

  /**
   * Migrations first (once per store), then `work`. A database that lost its tables since (dropped and
   * created again, a restore) is migrated again and `work` tried once more, without a restart. An
   * unreachable database, or one a newer release migrated, is `store_unavailable` (503), never a 500.
   */
  async #guard<R>(work: () => Promise<R>): Promise<R> {
    try {
      return await this.#migratedThen(work);
    } catch (error) {
      if (error instanceof AppError) throw error;
      countDatabaseError(databaseErrorType(error));
      if (error instanceof UnknownMigrationsError) {
        throw new AppError('store_unavailable', 'the settings store is unavailable; try again shortly', { field: 'settings', retryAfterS: 30, cause: error });
      }
      if (!isUnreachable(error)) throw error;
      // The cause is enough to act on (which host, refused or timed out); the stack is the driver's, not ours.
      logLine('error', 'settings store unavailable', { error: String(error) });
      throw new AppError('store_unavailable', 'the settings store is unavailable; try again shortly', { field: 'settings', retryAfterS: 5, cause: error });
    }
  }

  async #migratedThen<R>(work: () => Promise<R>): Promise<R> {
    await this.#migrated();
    try {
      return await work();
    } catch (error) {
      if (!isUndefinedTable(error)) throw error;
      logLine('warn', 'settings database: its tables are gone (created again?); migrating it again');
      this.#ready = undefined;
      await this.#migrated();
      return await work();
    }
  }

  /** Single flight; a failed attempt is forgotten, so the next call tries again (the database may be back, or restored). */
  #migrated(): Promise<void> {
    this.#ready ??= migrateToLatest(this.db).then(
      () => void (this.#unknownLogged = ''),
      (error: unknown) => {
        this.#ready = undefined;
        this.#noteUnknown(error);
        throw error;
      },
    );
    return this.#ready;
  }

  /** A rollback is logged once, naming the migrations this release does not know, not on every request. */
  #noteUnknown(error: unknown): void {
    if (!(error instanceof UnknownMigrationsError) || this.#unknownLogged === error.names.join()) return;
    this.#unknownLogged = error.names.join();
    logLine('error', 'settings database was migrated by a newer release: this instance stays unready', {
      unknownMigrations: error.names,
      knownMigrations: MIGRATION_NAMES,
    });
  }

  /**
   * What readiness says of the database (lib/server/health/readiness.ts): it answers, with this release's
   * schema. The schema is read again each time: a newer release's migration since makes this instance
   * unready (and its requests 503), a database created again is migrated again.
   */
  async state(): Promise<DatabaseState> {
    try {
      await this.#migrated();
      if ((await schemaState(this.db)) === 'behind') {
        this.#ready = undefined;
        await this.#migrated();
      }
      return 'ok';
    } catch (error) {
      if (error instanceof UnknownMigrationsError) this.#ready = undefined;
      this.#noteUnknown(error);
      countDatabaseError(databaseErrorType(error));
      if (error instanceof UnknownMigrationsError) return 'unknown-migration';
      return isUnreachable(error) ? 'unreachable' : 'error';
    }
  }
}

const databaseErrorType = (error: unknown) =>
  error instanceof UnknownMigrationsError ? 'unknown_migration' : isUnreachable(error) ? 'unreachable' : 'query';

/** A stored row as the setting's value; a row the schema no longer accepts is a bug of ours (500), not the user's. */
function savedOf<T>(setting: Setting<T>, row: { value: unknown; updated_at: Date }): Saved<T> {
  const parsed = safeParse(setting.schema, row.value);
  if (!parsed.success) throw new Error(`stored setting ${setting.name} does not match its schema: ${parsed.error.issues[0]?.message}`);
  return { value: parsed.data, updatedAt: row.updated_at.toISOString() };
}
