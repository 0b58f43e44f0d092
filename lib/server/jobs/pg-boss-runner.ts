import 'server-only';
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { errorFields, logLine } from '../logging';
import type { SqlExecutor } from '../settings/pglite-pool';
import type { JobRunner } from './runner';

/** Where pg-boss keeps its queues: a schema of its own beside ours, on PostgreSQL and the embedded database alike. */
const SCHEMA = 'pgboss';
/** Tries of a queued job (`send`) before it is given up, waiting 30 s, 60 s, 120 s… between them. */
const RETRY_LIMIT = 6;
const RETRY_DELAY_S = 30;

export type PgBossPlace = { connectionString: string } | { executeSql: SqlExecutor };

/**
 * The JobRunner on pg-boss: jobs live in the database every instance shares, so each runs on exactly one
 * of them. `every` is a throttled job: each instance offers one per period (pg-boss's singleton slot of
 * `everySeconds` keeps one, whoever offered it) and whichever instance fetches it first runs it. On the
 * embedded database pg-boss runs through the store's own connection (its `db.executeSql` option): one
 * instance, the same library and the same semantics.
 */
export class PgBossRunner implements JobRunner {
  readonly #boss: PgBoss;
  #started: Promise<void> | undefined;
  readonly #queues = new Map<string, Promise<void>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #stopped = false;

  constructor(place: PgBossPlace, options: { pollingIntervalSeconds?: number; retryDelaySeconds?: number } = {}) {
    const common = { schema: SCHEMA, schedule: false, supervise: true, migrate: true };
    this.#boss =
      'connectionString' in place
        ? new PgBoss({
            ...common,
            connectionString: place.connectionString,
            max: 3,
            application_name: 'tray-scan-dashboard-jobs',
          })
        : new PgBoss({
            ...common,
            db: { executeSql: (text: string, values?: unknown[]) => place.executeSql(text, values) },
          });
    this.#polling = options.pollingIntervalSeconds ?? 2;
    this.#retryDelay = options.retryDelaySeconds ?? RETRY_DELAY_S;
    // Maintenance and polling errors (the database briefly away): logged, and pg-boss tries again itself.
    this.#boss.on('error', (error) => logLine('warn', 'job runner: pg-boss reported an error', errorFields(error)));
  }

  readonly #polling: number;
  readonly #retryDelay: number;

  #start(): Promise<void> {
    this.#started ??= this.#boss.start().then(
      () => undefined,
      (error: unknown) => {
        this.#started = undefined;
        throw error;
      },
    );
    return this.#started;
  }

  /** The queue, created once (pg-boss 10 needs it before sending or working); `short`: one queued job per key. */
  #queue(name: string): Promise<void> {
    let made = this.#queues.get(name);
    if (!made) {
      made = this.#start().then(() =>
        this.#boss.createQueue(name, {
          name,
          policy: 'short',
          retryLimit: RETRY_LIMIT,
          retryDelay: this.#retryDelay,
          retryBackoff: true,
        }),
      );
      made.catch(() => this.#queues.delete(name));
      this.#queues.set(name, made);
    }
    return made;
  }

  async every(name: string, everySeconds: number, handler: () => Promise<void>): Promise<void> {
    await this.#queue(name);
    await this.#boss.work(name, { pollingIntervalSeconds: this.#pollingFor(everySeconds) }, async () => {
      await handler();
    });
    // Offered more often than the period (a slot is never skipped for a timer that fired just before its
    // start); the slot keeps the first offer, the rest are no-ops.
    const offer = () =>
      this.#boss.sendThrottled(name, {}, { retryLimit: 0 }, everySeconds, 'every').catch((error: unknown) => {
        if (!this.#stopped)
          logLine('warn', 'job runner: a periodic job was not offered; the next offer tries again', {
            job: name,
            ...errorFields(error),
          });
      });
    await offer();
    const timer = setInterval(() => void offer(), Math.max(1000, (everySeconds * 1000) / 4));
    timer.unref();
    this.#timers.add(timer);
  }

  async send<T extends object>(
    name: string,
    data: T,
    options: { startAfter?: Date; key?: string } = {},
  ): Promise<void> {
    await this.#queue(name);
    // A `short` queue keeps one queued job per key: a job without one gets a key of its own.
    await this.#boss.send(name, data, {
      singletonKey: options.key ?? randomUUID(),
      ...(options.startAfter && { startAfter: options.startAfter }),
    });
  }

  async work<T extends object>(name: string, handler: (data: T) => Promise<void>): Promise<void> {
    await this.#queue(name);
    await this.#boss.work<T>(name, { pollingIntervalSeconds: this.#polling }, async ([job]) => {
      if (job) await handler(job.data);
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.clear();
    if (!this.#started) return;
    await this.#started.catch(() => undefined);
    // Waits for the handlers running; never closes the store's own connection (the store closes it).
    await this.#boss.stop({ graceful: true, wait: true, close: true, timeout: 20_000 });
  }

  /** Polled at least twice a period, at most every half second (pg-boss's floor). */
  #pollingFor(everySeconds: number): number {
    return Math.max(0.5, Math.min(this.#polling, everySeconds / 2));
  }
}
