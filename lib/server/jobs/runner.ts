import 'server-only';

/**
 * Background work that must run once across every instance: pg-boss on PostgreSQL, and on the embedded
 * database the same interface (lib/server/jobs/). A handler that throws is retried with backoff.
 */
export interface JobRunner {
  /** Runs `handler` every `everySeconds`, on exactly one instance per period. */
  every(name: string, everySeconds: number, handler: () => Promise<void>): Promise<void>;
  /** Queues one job (`key`: at most one queued job with the same key). */
  send<T extends object>(name: string, data: T, options?: { startAfter?: Date; key?: string }): Promise<void>;
  /** Handles the jobs `send` queues under `name`. */
  work<T extends object>(name: string, handler: (data: T) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}
