import 'server-only';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * PGlite (PostgreSQL compiled to WebAssembly, in this process) as the pool Kysely's own PostgresDialect
 * expects, so the embedded database and the production PostgreSQL share one dialect, one schema and one set
 * of migrations. Our own ~50 lines rather than a package: kysely-pglite-dialect's peer range excludes
 * PGlite 0.5, and kysely-pglite brings an oclif CLI along.
 *
 * PGlite is a single connection. The pool lends it to one borrower at a time, the others wait in line: the
 * statements of one transaction (a migration, a conditional save) must never interleave with another
 * request's. The data directory belongs to one process: two instances need DATABASE_URL.
 */
/** Runs SQL text on the database: what a job library takes instead of a connection of its own (pg-boss's `db`). */
export type SqlExecutor = (text: string, values?: readonly unknown[]) => Promise<{ rows: unknown[] }>;

export function pglitePool(dataDir: string): PostgresPool & { opened(): Promise<PGlite>; executeSql: SqlExecutor } {
  let database: Promise<PGlite> | undefined;
  let line: Promise<void> = Promise.resolve();

  const opened = () => {
    database ??= mkdir(dataDir, { recursive: true }).then(() => PGlite.create(dataDir));
    // A failed open (a directory we may not write) is tried again by the next borrower, not remembered.
    database.catch(() => (database = undefined));
    return database;
  };

  /** Waits for the connection's turn; the function given back gives the turn on. */
  const takeTurn = async (): Promise<() => void> => {
    let done!: () => void;
    const turn = new Promise<void>((resolve) => (done = resolve));
    const previous = line;
    line = previous.then(() => turn);
    await previous;
    return done;
  };
  /** Runs `work` with the connection in its turn. */
  const inTurn = async <R>(work: (db: PGlite) => Promise<R>): Promise<R> => {
    const db = await opened();
    const done = await takeTurn();
    try {
      return await work(db);
    } finally {
      done();
    }
  };

  return {
    opened,
    // A statement, or several without parameters (a job library's migration in one text), in the line.
    executeSql: (text, values = []) =>
      inTurn(async (db) => {
        try {
          return values.length === 0
            ? { rows: (await db.exec(text)).at(-1)?.rows ?? [] }
            : { rows: (await db.query(text, [...values])).rows };
        } catch (error) {
          // A text that opened a transaction and failed inside it would leave the one connection unusable.
          await db.exec('rollback').catch(() => undefined);
          throw error;
        }
      }),
    async connect() {
      const db = await opened();
      const done = await takeTurn();
      let released = false;
      const client = {
        async query(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<unknown>> {
          const result = await db.query(sql, [...parameters]);
          return {
            command: (result.command ?? 'SELECT') as PostgresQueryResult<unknown>['command'],
            rowCount: result.rowCount ?? result.affectedRows ?? 0,
            rows: result.rows,
          };
        },
        release() {
          if (released) return;
          released = true;
          done();
        },
      };
      return client as PostgresPoolClient;
    },
    async end() {
      if (!database) return;
      const db = await database.catch(() => undefined);
      database = undefined;
      await line;
      if (db && !db.closed) await db.close();
    },
  };
}
