import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossRunner } from '@/lib/server/jobs/pg-boss-runner';
import type { JobRunner } from '@/lib/server/jobs/runner';
import { embeddedSql } from '@/lib/server/settings/database';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { openStore } from '../helpers/store';

/** A promise and the function that settles it: what a handler resolves when the awaited event happens. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Runs of `every` on two runners sharing a database: as many runs as periods with a job, each period's job
 * on one of them (the runs match pg-boss's completed jobs one to one, each of its own period).
 */
async function oncePerPeriod(a: JobRunner, b: JobRunner, url: string) {
  const runs: string[] = [];
  const enough = signal();
  const handler = (runner: string) => async () => {
    runs.push(runner);
    if (runs.length === 4) enough.resolve();
  };
  await a.every('tick', 2, handler('a'));
  await b.every('tick', 2, handler('b'));
  await enough.promise;
  await Promise.all([a.stop(), b.stop()]);
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ jobs: string; periods: string }>(
      "select count(*) as jobs, count(distinct singleton_on) as periods from pgboss.job where name = 'tick' and state = 'completed'",
    );
    expect(rows[0]).toEqual({ jobs: String(runs.length), periods: String(runs.length) });
  } finally {
    await client.end();
  }
}

/** A queued job with a key is queued once; a job that throws is tried again. */
async function queuedAndRetried(runner: JobRunner) {
  const seen: string[] = [];
  const done = signal();
  let failures = 0;
  await runner.send('once', { n: 1 }, { key: 'same' });
  await runner.send('once', { n: 2 }, { key: 'same' });
  await runner.send('once', { n: 3 });
  await runner.work<{ n: number }>('once', async ({ n }) => {
    seen.push(String(n));
    if (seen.length === 2) done.resolve();
  });
  await done.promise;
  expect(seen.sort()).toEqual(['1', '3']);

  const retried = signal<number>();
  await runner.work<{ n: number }>('flaky', async () => {
    failures++;
    if (failures === 1) throw new Error('the first try fails');
    retried.resolve(failures);
  });
  await runner.send('flaky', { n: 1 });
  // pg-boss waits its retryDelay before the second try: the queue's own setting, made short for this test.
  expect(await retried.promise).toBe(2);
}

describe('the job runner on PostgreSQL (pg-boss)', () => {
  let server: PostgresServer;
  let url: string;
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase('jobs');
  });
  afterAll(async () => server?.stop());

  it('two instances: a periodic job runs once per period, on one of them', async () => {
    const [a, b] = [
      new PgBossRunner({ connectionString: url }, { pollingIntervalSeconds: 0.5 }),
      new PgBossRunner({ connectionString: url }, { pollingIntervalSeconds: 0.5 }),
    ];
    try {
      await oncePerPeriod(a, b, url);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('queues a keyed job once and retries a failed one', async () => {
    const runner = new PgBossRunner({ connectionString: url }, { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 });
    try {
      await queuedAndRetried(runner);
    } finally {
      await runner.stop();
    }
  });
});

describe('the job runner on the embedded database (pg-boss through the store’s connection)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsb-jobs-'));
  const store = openStore({ dataDir: dir });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs periodic and queued jobs beside the store’s own statements', async () => {
    await store.warm();
    const runner = new PgBossRunner(
      { executeSql: embeddedSql(store.db)! },
      { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 },
    );
    try {
      const ticked = signal();
      await runner.every('tick', 5, async () => {
        // The store answers while a job runs: the connection is shared in turns, not held.
        await store.organisations.count();
        ticked.resolve();
      });
      await ticked.promise;
      await queuedAndRetried(runner);
    } finally {
      await runner.stop();
    }
  });
});
