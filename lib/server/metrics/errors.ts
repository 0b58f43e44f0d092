import 'server-only';
import { metrics } from './registry';

/** A failure of the settings database: unreachable, migrated by a newer release, or a query that failed. */
export function countDatabaseError(type: 'unreachable' | 'unknown_migration' | 'query'): void {
  metrics().databaseErrors.inc({ error_type: type });
}

/** An error of the Redis connection (ioredis reports each on its `error` event). */
export function countRedisError(): void {
  metrics().redisErrors.inc();
}
