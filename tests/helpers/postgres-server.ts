import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export type PostgresServer = {
  /** `postgres://` URL of a database of its own on this server. */
  url(database?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  port: number;
  /** The server's data directory (its files, for tests that look into them). */
  dataDir: string;
  /** Stops this server (by its own pid) and removes its directory. */
  stop(): Promise<void>;
};

/** A free TCP port on loopback, as the kernel hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Debian's PostgreSQL 15 on a free loopback port, in a directory of its own, trusting local connections (it
 * listens on 127.0.0.1 only) and built for speed, not durability (no fsync). initdb and postgres refuse to
 * run as root: as root, both run as the `postgres` system user (spawn's uid/gid, so the pid we keep is the
 * server's own, not a wrapper's).
 */
export async function startPostgres(): Promise<PostgresServer> {
  if (!existsSync(`${BIN}/postgres`)) throw new Error(`no PostgreSQL at ${BIN} (apt-get install -y postgresql)`);
  const dir = mkdtempSync(join(tmpdir(), 'settings-pg-'));
  const owner = process.getuid?.() === 0 ? systemUser('postgres') : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  execFileSync(`${BIN}/initdb`, ['-D', data, '-U', 'app', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'], {
    ...owner,
    stdio: 'ignore',
  });
  const port = await freePort();
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
  ];
  const child = spawn(`${BIN}/postgres`, args, { ...owner, stdio: 'ignore' });
  const url = (database = 'postgres') => `postgres://app@127.0.0.1:${port}/${database}`;
  await waitUntilAnswering(url(), child);
  return {
    url,
    port,
    dataDir: data,
    async createDatabase(name) {
      const client = new pg.Client(url());
      await client.connect();
      await client.query(`create database "${name.replace(/"/g, '')}"`);
      await client.end();
      return url(name);
    },
    stop: () => stop(child, dir),
  };
}

function systemUser(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client(url);
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error('PostgreSQL did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** SIGINT is PostgreSQL's "fast shutdown": sessions are ended, nothing is waited for. */
function stop(child: ChildProcess, dir: string): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      rmSync(dir, { recursive: true, force: true });
      resolve();
    };
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', done);
    process.kill(child.pid!, 'SIGINT');
  });
}
