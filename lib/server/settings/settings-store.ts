import 'server-only';
import { sql, type Transaction } from 'kysely';
import { safeParse, type core } from 'zod';
import { AppError, invalidInput } from '../http/app-error';
import { AlertLogStore } from '../alerts/alert-log-store';
import { AlertsStore } from '../alerts/alerts-store';
import { AuditStore } from '../audit/audit-store';
import { SessionStore } from '../auth/session-store';
import { logLine } from '../logging';
import { countDatabaseError } from '../metrics/errors';
import type { CredentialsCipher } from '../org/credentials-crypto';
import { OrganisationsStore } from '../org/organisations-store';
import { LinksStore } from '../people/links-store';
import { PeopleStore } from '../people/people-store';
import {
  isUndefinedTable,
  isUnreachable,
  openDatabase,
  UUID,
  type DatabasePlace,
  type SettingsDb,
  type SettingsTables,
} from './database';
import { MIGRATION_NAMES, migrateToLatest, schemaState, UnknownMigrationsError } from './migrations';
import { SavedViewsStore } from './saved-views-store';
import { ReportSchedulesStore } from '../reports/schedules-store';

/** One kind of organisation setting: its row name, what a valid value is, what applies before any save, and whether every save is kept. */
export type Setting<T> = { name: string; schema: core.$ZodType<T>; fallback: T; history?: boolean };

/** The database as readiness sees it: `unknown-migration` when a newer release migrated it. */
export type DatabaseState = 'ok' | 'unreachable' | 'unknown-migration' | 'error';

/** Who saved something, as people see them. */
export type Saver = { email: string; name: string };

/** A setting's value, when it last changed (ISO 8601, milliseconds; null: never saved, the fallback applies) and by whom. */
export type Saved<T> = { value: T; updatedAt: string | null; updatedBy: Saver | null };

/** One saved version of a setting that keeps its history, the newest first in a list. */
export type HistoryEntry<T> = { id: string; savedAt: string; savedBy: Saver | null; value: T };

// The database's clock, cut to milliseconds so an `updatedAt` that went through JSON compares equal to the stored
// one; a save never reuses its predecessor's instant, so every version has its own `updatedAt`.
const NOW = sql<Date>`date_trunc('milliseconds', clock_timestamp())`;
const AFTER_CURRENT = sql<Date>`greatest(date_trunc('milliseconds', clock_timestamp()), organisation_settings.updated_at + interval '1 millisecond')`;
/** Versions of a setting the history keeps per organisation (the oldest go). */
const HISTORY_KEPT = 200;

/**
 * The dashboard's database: the organisations' settings (a value per organisation and setting, validated with
 * the setting's zod schema on the way in and out), and beside them the organisations, people, sessions, saved
 * views and the activity log, each a store of its own on the same connection. Every settings call names the
 * organisation: there is no query across organisations. The schema is brought up to date once per store,
 * before its first query (single flight; a failed attempt is retried by the next call). A database that
 * cannot be reached is an AppError `store_unavailable` (503).
 */
export class SettingsStore {
  #ready: Promise<void> | undefined;
  /** The unknown migrations last logged, so that a rollback is logged once, not on every request. */
  #unknownLogged = '';
  /** The organisations' saved views, their organisations, people, sessions and activity: behind the same migrations and the same guard. */
  readonly views: SavedViewsStore;
  readonly organisations: OrganisationsStore;
  readonly people: PeopleStore;
  readonly links: LinksStore;
  readonly sessions: SessionStore;
  readonly audit: AuditStore;
  /** Alert rules and subscriptions; and what the watcher has seen, fired and delivered. */
  readonly alerts: AlertsStore;
  readonly alertLog: AlertLogStore;
  /** Saved views sent by e-mail on a schedule. */
  readonly reports: ReportSchedulesStore;

  constructor(
    readonly db: SettingsDb,
    cipher: () => CredentialsCipher,
  ) {
    const guard = <R>(work: () => Promise<R>, field?: string) => this.#guard(work, field);
    this.views = new SavedViewsStore(db, guard);
    this.organisations = new OrganisationsStore(db, guard, cipher);
    this.people = new PeopleStore(db, guard);
    this.links = new LinksStore(db, guard);
    this.sessions = new SessionStore(db, guard);
    this.audit = new AuditStore(db, guard);
    this.alerts = new AlertsStore(db, guard, cipher);
    this.alertLog = new AlertLogStore(db, guard);
    this.reports = new ReportSchedulesStore(db, guard);
  }

  static open(place: DatabasePlace, cipher: () => CredentialsCipher): SettingsStore {
    return new SettingsStore(openDatabase(place), cipher);
  }

  /**
   * Opens the database and runs the migrations now rather than on the first request (PGlite's first start in
   * a new directory takes seconds). A failure is logged and left for the first request to meet again.
   */
  async warm(): Promise<boolean> {
    return this.#guard(async () => true).catch((error: unknown) => {
      logLine('warn', 'settings store: not ready at start-up; requests will try again', { error: String(error) });
      return false;
    });
  }

  async get<T>(organisationId: string, setting: Setting<T>): Promise<Saved<T>> {
    const row = await this.#guard(() =>
      this.db
        .selectFrom('organisation_settings as s')
        .leftJoin('people as p', 'p.id', 's.updated_by')
        .select(['s.value', 's.updated_at', 'p.email', 'p.name'])
        .where('s.organisation_id', '=', organisationId)
        .where('s.name', '=', setting.name)
        .executeTakeFirst(),
    );
    return row ? savedOf(setting, row) : { value: setting.fallback, updatedAt: null, updatedBy: null };
  }

  /**
   * Saves `value` (validated here, whoever calls) for the organisation, as `by` (a person's id). `expectedUpdatedAt`:
   * the version the editor started from (null: nothing saved yet); when another save came since, nothing is
   * written and the answer is an `edit_conflict` naming who saved and when. Absent: the save replaces whatever is there.
   */
  async put<T>(
    organisationId: string,
    setting: Setting<T>,
    value: unknown,
    expectedUpdatedAt?: string | null,
    by: string | null = null,
  ): Promise<Saved<T>> {
    const parsed = safeParse(setting.schema, value);
    if (!parsed.success) throw invalidInput(parsed.error, setting.name, setting.name);
    if (typeof expectedUpdatedAt === 'string' && Number.isNaN(Date.parse(expectedUpdatedAt))) {
      throw new AppError('invalid_input', 'must be the updatedAt the edit started from', {
        field: 'expectedUpdatedAt',
      });
    }
    const json = JSON.stringify(parsed.data);
    const written = await this.#guard(() =>
      this.db.transaction().execute(async (trx) => {
        const row = await this.#write(trx, organisationId, setting.name, json, expectedUpdatedAt, by);
        if (row && setting.history) {
          await trx
            .insertInto('target_history')
            .values({ organisation_id: organisationId, targets: json, saved_at: row.updated_at, saved_by: by })
            .execute();
          await trx
            .deleteFrom('target_history')
            .where('organisation_id', '=', organisationId)
            .where('id', 'not in', (eb) =>
              eb
                .selectFrom('target_history')
                .select('id')
                .where('organisation_id', '=', organisationId)
                .orderBy('saved_at', 'desc')
                .limit(HISTORY_KEPT),
            )
            .execute();
        }
        if (!row) return undefined;
        const saver = row.updated_by
          ? await trx.selectFrom('people').select(['email', 'name']).where('id', '=', row.updated_by).executeTakeFirst()
          : undefined;
        return savedOf(setting, { ...row, email: saver?.email ?? null, name: saver?.name ?? null });
      }),
    );
    if (written) return written;
    const current = await this.get(organisationId, setting);
    const who = current.updatedBy ? current.updatedBy.name || current.updatedBy.email : 'a colleague';
    throw new AppError(
      'edit_conflict',
      current.updatedAt === null
        ? `nothing was saved at ${expectedUpdatedAt}; load the ${setting.name} again before saving`
        : `${who} changed the ${setting.name} at ${current.updatedAt}; load them again before saving`,
      { field: setting.name },
    );
  }

  /** The saved versions of a setting that keeps its history, newest first. */
  async history<T>(organisationId: string, setting: Setting<T>, limit = 50): Promise<HistoryEntry<T>[]> {
    const rows = await this.#guard(() =>
      this.db
        .selectFrom('target_history as h')
        .leftJoin('people as p', 'p.id', 'h.saved_by')
        .select(['h.id', 'h.targets', 'h.saved_at', 'p.email', 'p.name'])
        .where('h.organisation_id', '=', organisationId)
        .orderBy('h.saved_at', 'desc')
        .orderBy('h.id', 'desc')
        .limit(limit)
        .execute(),
    );
    return rows.map((r) => ({
      id: String(r.id),
      savedAt: r.saved_at.toISOString(),
      savedBy: saverOf(r),
      value: valueOf(setting, r.targets),
    }));
  }

  /** One saved version, or a 404 (another organisation's versions are not found either). */
  async historyEntry<T>(organisationId: string, setting: Setting<T>, id: string): Promise<HistoryEntry<T>> {
    const row = /^\d{1,18}$/.test(id)
      ? await this.#guard(() =>
          this.db
            .selectFrom('target_history as h')
            .leftJoin('people as p', 'p.id', 'h.saved_by')
            .select(['h.id', 'h.targets', 'h.saved_at', 'p.email', 'p.name'])
            .where('h.organisation_id', '=', organisationId)
            .where('h.id', '=', id)
            .executeTakeFirst(),
        )
      : undefined;
    if (!row)
      throw new AppError('not_found', `no saved version of the ${setting.name} with this id in your organisation`, {
        field: 'id',
      });
    return {
      id: String(row.id),
      savedAt: row.saved_at.toISOString(),
      savedBy: saverOf(row),
      value: valueOf(setting, row.targets),
    };
  }

  /** Closes the connections (the pool, or the embedded database, which then writes everything out). */
  close(): Promise<void> {
    return this.db.destroy();
  }

  /** One statement each way, so that two saves racing cannot both pass the check. */
  #write(
    trx: Transaction<SettingsTables>,
    organisationId: string,
    name: string,
    json: string,
    expected: string | null | undefined,
    by: string | null,
  ) {
    const row = {
      organisation_id: organisationId,
      name,
      value: json,
      updated_at: NOW,
      updated_by: by && UUID.test(by) ? by : null,
    };
    const returning = ['value', 'updated_at', 'updated_by'] as const;
    if (expected === undefined) {
      return trx
        .insertInto('organisation_settings')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['organisation_id', 'name']).doUpdateSet({
            value: (eb) => eb.ref('excluded.value'),
            updated_by: (eb) => eb.ref('excluded.updated_by'),
            updated_at: AFTER_CURRENT,
          }),
        )
        .returning(returning)
        .executeTakeFirst();
    }
    if (expected === null) {
      return trx
        .insertInto('organisation_settings')
        .values(row)
        .onConflict((oc) => oc.columns(['organisation_id', 'name']).doNothing())
        .returning(returning)
        .executeTakeFirst();
    }
    return trx
      .updateTable('organisation_settings')
      .set({ value: json, updated_at: AFTER_CURRENT, updated_by: row.updated_by })
      .where('organisation_id', '=', organisationId)
      .where('name', '=', name)
      .where('updated_at', '=', new Date(expected))
      .returning(returning)
      .executeTakeFirst();
  }

  /**
   * Migrations first (once per store), then `work`. A database that lost its tables since (dropped and
   * created again, a restore) is migrated again and `work` tried once more, without a restart. An
   * unreachable database, or one a newer release migrated, is `store_unavailable` (503) naming `field` (the
   * settings, the session…), never a 500.
   */
  async #guard<R>(work: () => Promise<R>, field = 'settings'): Promise<R> {
    try {
      return await this.#migratedThen(work);
    } catch (error) {
      if (error instanceof AppError) throw error;
      countDatabaseError(databaseErrorType(error));
      const what = field === 'session' ? 'the session store' : 'the settings store';
      if (error instanceof UnknownMigrationsError) {
        throw new AppError('store_unavailable', `${what} is unavailable; try again shortly`, {
          field,
          retryAfterS: 30,
          cause: error,
        });
      }
      if (!isUnreachable(error)) throw error;
      // The cause is enough to act on (which host, refused or timed out); the stack is the driver's, not ours.
      logLine('error', 'settings store unavailable', { error: String(error) });
      throw new AppError('store_unavailable', `${what} is unavailable; try again shortly`, {
        field,
        retryAfterS: 5,
        cause: error,
      });
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

const saverOf = (row: { email: string | null; name: string | null }): Saver | null =>
  row.email ? { email: row.email, name: row.name ?? '' } : null;

/** A stored value as the setting's; one the schema no longer accepts is a bug of ours (500), not the user's. */
function valueOf<T>(setting: Setting<T>, value: unknown): T {
  const parsed = safeParse(setting.schema, typeof value === 'string' ? JSON.parse(value) : value);
  if (!parsed.success)
    throw new Error(`stored setting ${setting.name} does not match its schema: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

function savedOf<T>(
  setting: Setting<T>,
  row: { value: unknown; updated_at: Date; email: string | null; name: string | null },
): Saved<T> {
  return { value: valueOf(setting, row.value), updatedAt: row.updated_at.toISOString(), updatedBy: saverOf(row) };
}
