import 'server-only';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics, in one registry. Names and labels follow OpenTelemetry's semantic
 * conventions as its Prometheus exporter writes them (`http.server.request.duration` in seconds becomes
 * `http_server_request_duration_seconds`, `http.route` the label `http_route`); the app's own metrics take
 * the same form. Held on globalThis: the custom server and Next's bundle each carry a copy of this module,
 * and both must count into the one registry that /metrics reads.
 */
/** How many requests one load may have in flight now, and has. */
export type GateReading = () => { limit: number; inFlight: number };

const sum = (gates: Set<GateReading>, value: (g: GateReading) => number) =>
  [...gates].reduce((n, g) => n + value(g), 0);

function createMetrics() {
  const registry = new Registry();
  const gates = new Set<GateReading>();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpServerDuration: new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests (until the last byte of the answer, streams included).',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
      // OpenTelemetry's advised boundaries, and longer ones for streams and exports of whole ranges.
      buckets: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 120],
      registers,
    }),
    upstreamRequests: new Counter({
      name: 'batch_service_requests_total',
      help: 'HTTP exchanges with the Batch Data Service by outcome (ok, 429, 503, 5xx, timeout, refused); abandoned ones are not counted.',
      labelNames: ['operation', 'outcome'] as const,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'batch_service_request_duration_seconds',
      help: 'Duration of HTTP exchanges with the Batch Data Service, body included, by outcome.',
      labelNames: ['operation', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers,
    }),
    upstreamRetries: new Counter({
      name: 'batch_service_retries_total',
      help: 'Retries of Batch Data Service requests, by why the attempt before failed.',
      labelNames: ['reason'] as const,
      registers,
    }),
    /** The adaptive limits of the range loads in progress, read when scraped. */
    gates,
    concurrencyLimit: new Gauge({
      name: 'batch_service_concurrency_limit',
      help: 'Upstream requests the range loads in progress may have in flight now (their adaptive limits, summed).',
      registers,
      collect() {
        this.set(sum(gates, (g) => g().limit));
      },
    }),
    inFlight: new Gauge({
      name: 'batch_service_requests_in_flight',
      help: 'Upstream requests the range loads in progress have in flight now.',
      registers,
      collect() {
        this.set(sum(gates, (g) => g().inFlight));
      },
    }),
    loadsStarted: new Counter({
      name: 'range_loads_started_total',
      help: 'Range loads (the stream of a whole range) started.',
      registers,
    }),
    loadsFinished: new Counter({
      name: 'range_loads_finished_total',
      help: 'Range loads that sent every batch of their range.',
      registers,
    }),
    loadsFailed: new Counter({
      name: 'range_loads_failed_total',
      help: 'Range loads that ended with an error (the browser can resume them).',
      registers,
    }),
    loadsCancelled: new Counter({
      name: 'range_loads_cancelled_total',
      help: 'Range loads the browser left before the end.',
      registers,
    }),
    batchesStreamed: new Counter({
      name: 'range_load_batches_streamed_total',
      help: 'Batches sent by range loads.',
      registers,
    }),
    signIns: new Counter({
      name: 'sign_ins_total',
      help: 'Sign-in attempts by method and result (success, refused, throttled, unavailable, error).',
      labelNames: ['method', 'result'] as const,
      registers,
    }),
    activeSessions: new Gauge({
      name: 'sessions_active',
      help: 'Sessions signed in and not yet ended, as the session store counts them.',
      registers,
      // Counted when scraped (countActiveSessionsWith); a store that cannot answer leaves the last count.
      async collect() {
        const count = (globalThis as { __countActiveSessions?: () => Promise<number> }).__countActiveSessions;
        if (!count) return;
        try {
          this.set(await count());
        } catch {
          // the last count stays; the store's own failure is logged and counted where it happened
        }
      },
    }),
    databaseErrors: new Counter({
      name: 'database_errors_total',
      help: 'Failures of the settings database by type (unreachable, unknown_migration, query).',
      labelNames: ['error_type'] as const,
      registers,
    }),
    redisErrors: new Counter({
      name: 'redis_errors_total',
      help: 'Errors of the Redis connection (refused, reset, timed out commands).',
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const holder = globalThis as unknown as { __metrics?: Metrics };

export function metrics(): Metrics {
  holder.__metrics ??= createMetrics();
  return holder.__metrics;
}
