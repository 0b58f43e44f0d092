/**
 * The settings database's maintenance, as `npm run db:<command>` runs it (bundled into .next/db-cli.js by
 * `npm run build`, so a deployment needs node alone):
 *
 *   migrate          bring the schema to this release (the app also does it at start-up)
 *   status           applied, pending and unknown migrations; exit 0 up to date, 1 pending, 2 unknown (a newer release)
 *   backup FILE      the embedded database to FILE (.tar.gz), the instance stopped; PostgreSQL: pg_dump, see docs/operations.md
 *   restore FILE     the embedded database from FILE, keeping the current one beside it
 *
 * It reads DATABASE_URL and SETTINGS_DATA_DIR from the environment and the .env files, as the app does.
 */
import { loadEnvFiles } from '../../lib/env-files';
import { databasePlaceOf } from '../../lib/server/config';
import { openDatabase, type DatabasePlace } from '../../lib/server/settings/database';
import { backupEmbedded, restoreEmbedded } from '../../lib/server/settings/maintenance/embedded-backup';
import { migrationStatus } from '../../lib/server/settings/maintenance/migration-status';
import { migrateToLatest, UnknownMigrationsError } from '../../lib/server/settings/migrations';

const USAGE = 'usage: db migrate | db status | db backup FILE [--force] | db restore FILE [--force]';

/** The database named for a person: PostgreSQL's host and database, never its password. */
function describe(place: DatabasePlace): string {
  if ('dataDir' in place) return `embedded database in ${place.dataDir}`;
  const url = new URL(place.databaseUrl);
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

async function withDatabase<T>(
  place: DatabasePlace,
  work: (db: ReturnType<typeof openDatabase>) => Promise<T>,
): Promise<T> {
  const db = openDatabase(place);
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

async function main(args: string[]): Promise<number> {
  loadEnvFiles('production');
  const [command, file, ...rest] = args;
  const force = rest.includes('--force') || file === '--force';
  const place = databasePlaceOf(process.env);
  switch (command) {
    case 'status': {
      const { applied, pending, unknown } = await withDatabase(place, migrationStatus);
      console.log(describe(place));
      console.log(`applied: ${applied.join(', ') || 'none'}`);
      console.log(`pending: ${pending.join(', ') || 'none'}`);
      if (unknown.length)
        console.log(
          `unknown: ${unknown.join(', ')} (a newer release migrated this database: run that release, or restore a backup)`,
        );
      return unknown.length ? 2 : pending.length ? 1 : 0;
    }
    case 'migrate': {
      const before = await withDatabase(place, async (db) => {
        const status = await migrationStatus(db);
        await migrateToLatest(db);
        return status;
      });
      console.log(
        `${describe(place)}: ${before.pending.length ? `applied ${before.pending.join(', ')}` : 'up to date, nothing to apply'}`,
      );
      return 0;
    }
    case 'backup':
    case 'restore': {
      if (!file || file === '--force') throw new UsageError(`${command} needs a FILE`);
      if ('databaseUrl' in place) {
        throw new UsageError(
          `${command} is for the embedded database; for PostgreSQL use pg_dump -Fc / pg_restore (docs/operations.md)`,
        );
      }
      if (command === 'backup') {
        const bytes = await backupEmbedded(place.dataDir, file, { force });
        console.log(`${describe(place)} written to ${file} (${bytes} bytes)`);
      } else {
        const kept = await restoreEmbedded(place.dataDir, file, { force });
        console.log(
          `${describe(place)} restored from ${file}${kept ? `; the one it replaced is kept in ${kept}` : ''}`,
        );
      }
      return 0;
    }
    default:
      throw new UsageError(USAGE);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof UnknownMigrationsError || error instanceof Error ? error.message : String(error);
    console.error(`db: ${message}`);
    process.exit(error instanceof UsageError ? 64 : 1);
  },
);
