import 'server-only';
import { once } from 'node:events';
import { getConfig } from '../config';
import { logLine } from '../logging';
import { sharedRedis } from '../stores/redis-connection';
import { settingsStore, type DatabaseState } from '../settings';
import { serviceHealth, type ServiceHealth } from '../batches/upstream-health';
import { isDraining } from './shutdown';

/** What each part says; none names a host, a user or an error's text (those go to the log). */
export type ReadinessChecks = {
  database: DatabaseState | 'timeout';
  redis: 'ok' | 'unreachable' | 'timeout' | 'not-configured';
  instance: 'serving' | 'draining';
  /** Reported, never a reason to be unready: every instance shares the service. */
  batchService: ServiceHealth;
};

export type Readiness = { ready: boolean; checks: ReadinessChecks };

/** A probe waits no longer than this for the database or Redis: load balancers time their probes out at a few seconds. */
const CHECK_TIMEOUT_MS = 2000;

/** `work`, or a rejection once `signal` aborts (the work itself goes on, bounded by its own timeouts). */
function within<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

async function databaseState(): Promise<ReadinessChecks['database']> {
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  return within(settingsStore().state(), signal).catch(() => 'timeout' as const);
}

async function redisState(): Promise<ReadinessChecks['redis']> {
  if (!getConfig().redisUrl) return 'not-configured';
  const redis = sharedRedis();
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  try {
    // A first connection still being made is waited for; one being made again (Redis went away) is not.
    if (redis.status === 'connecting' || redis.status === 'connect') await once(redis, 'ready', { signal });
    if (redis.status !== 'ready') return 'unreachable';
    await within(redis.ping(), signal);
    return 'ok';
  } catch {
    return signal.aborted ? 'timeout' : 'unreachable';
  }
}

const holder = globalThis as unknown as { __lastReadiness?: string };

/**
 * Whether this instance can serve signed-in people: its database answers with this release's schema (it is
 * migrated on the way, a re-created one too), Redis answers when one is configured, and it is not draining.
 * A change of the answer is logged once, naming what changed.
 */
export async function readiness(): Promise<Readiness> {
  const [database, redis] = await Promise.all([databaseState(), redisState()]);
  const checks: ReadinessChecks = {
    database,
    redis,
    instance: isDraining() ? 'draining' : 'serving',
    batchService: serviceHealth(),
  };
  const ready = database === 'ok' && (redis === 'ok' || redis === 'not-configured') && checks.instance === 'serving';
  const summary = JSON.stringify({ ready, database, redis, instance: checks.instance });
  if (holder.__lastReadiness !== summary) {
    // The first answer is news only when it is "unready"; every change after it is.
    if (holder.__lastReadiness !== undefined || !ready)
      logLine(ready ? 'info' : 'warn', ready ? 'ready' : 'unready', { database, redis, instance: checks.instance });
    holder.__lastReadiness = summary;
  }
  return { ready, checks };
}
