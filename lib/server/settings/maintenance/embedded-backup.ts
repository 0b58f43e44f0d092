import 'server-only';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * Backup and restore of the embedded database (PGlite): its data directory as the gzipped tarball PGlite
 * itself dumps and loads. The directory belongs to one process, so the instance is stopped first; PGlite
 * leaves `postmaster.pid` behind while a process has it open (or after a crash), and both refuse then
 * unless forced.
 */
export class DataDirInUseError extends Error {
  constructor(dataDir: string) {
    super(
      `${dataDir} looks in use (postmaster.pid is there): stop the dashboard first. If it is stopped (it ended without ` +
        'closing the database), run again with --force.',
    );
  }
}

function refuseIfInUse(dataDir: string, force: boolean) {
  if (!force && existsSync(path.join(dataDir, 'postmaster.pid'))) throw new DataDirInUseError(dataDir);
}

/** Writes the database at `dataDir` to `file` (a .tar.gz); returns its size in bytes. */
export async function backupEmbedded(dataDir: string, file: string, { force = false } = {}): Promise<number> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new Error(`${dataDir} holds no database to back up`);
  refuseIfInUse(dataDir, force);
  const db = await PGlite.create(dataDir);
  try {
    const dump = await db.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    // Written beside, then renamed: a failed backup never leaves half a file under the name asked for.
    await writeFile(`${file}.partial`, bytes, { mode: 0o600 });
    await rename(`${file}.partial`, file);
    return bytes.length;
  } finally {
    await db.close();
  }
}

/**
 * Replaces the database at `dataDir` with the one in `file`. The tarball is loaded into a new directory
 * beside it and checked to open first; the current directory is kept as `<dataDir>.before-restore-<time>`
 * (returned) rather than deleted, until the operator has seen the restored settings.
 */
export async function restoreEmbedded(
  dataDir: string,
  file: string,
  { force = false, now = new Date() } = {},
): Promise<string | null> {
  refuseIfInUse(dataDir, force);
  const tarball = new Blob([await readFile(file)], { type: 'application/x-gzip' });
  const incoming = `${dataDir}.restoring`;
  await rm(incoming, { recursive: true, force: true });
  const db = await PGlite.create({ dataDir: incoming, loadDataDir: tarball });
  try {
    await db.query('select 1');
  } finally {
    await db.close();
  }
  let kept: string | null = null;
  if (existsSync(dataDir)) {
    kept = `${dataDir}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    await rename(dataDir, kept);
  }
  await rename(incoming, dataDir);
  return kept;
}
