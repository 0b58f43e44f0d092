import 'server-only';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY } from '../batch-api/range-load';
import { UPSTREAM_SOCKETS } from '../batch-api/keep-alive-fetch';
import { ApiVersionSchema } from '../batch-api/schemas';

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const port = z.coerce.number().int().min(1).max(65_535);

/** Where and how the production server (server/main.ts) listens, reports and stops. */
const ServerEnvSchema = z.object({
  /** The interface the app listens on: loopback unless told otherwise. */
  HOST: z.string().regex(/^[\w.:-]+$/, 'must be a host name or an IP address').default('127.0.0.1'),
  PORT: port.default(3000),
  /** A second listener, on loopback only, serving /metrics without a token. */
  METRICS_PORT: port.optional(),
  /** Bearer token for /metrics on the app's own port; unset, the app's port has no /metrics. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** After SIGTERM, how long running streams may go on before they end with a line the browser resumes from. */
  SHUTDOWN_GRACE_S: z.coerce.number().int().min(0).max(3600).default(25),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).optional(),
});

/** The production server's settings (server/main.ts). */
export type ServerSettings = { host: string; port: number; metricsPort?: number; metricsToken?: string; shutdownGraceS: number };

function serverSettings(e: z.infer<typeof ServerEnvSchema>): ServerSettings {
  return { host: e.HOST, port: e.PORT, metricsPort: e.METRICS_PORT, metricsToken: e.METRICS_TOKEN, shutdownGraceS: e.SHUTDOWN_GRACE_S };
}

export const EnvSchema = z.object({
  NODE_ENV: z.string().optional(),
  /** Set by `npm run demo` / `npm run dev`: the app runs on the bundled sandbox. */
  DASHBOARD_DEMO: z.enum(['0', '1']).optional(),
  BATCH_API_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  BATCH_API_VERSION: ApiVersionSchema.default('v2'),
  BATCH_API_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Requests one range load starts with in flight at once; the service's rate limits are not published. */
  BATCH_API_CONCURRENCY: z.coerce.number().int().min(1).max(MAX_CONCURRENCY).default(DEFAULT_CONCURRENCY),
  /** The most it may grow to while the service answers as fast as at the start (at least BATCH_API_CONCURRENCY). */
  BATCH_API_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(MAX_CONCURRENCY).optional(),
  /** Range loads (streams and exports) one session may run at once; more wait RANGE_LOAD_WAIT_S, then 429. */
  RANGE_LOADS_PER_SESSION: z.coerce.number().int().min(1).max(1000).default(6),
  /** Range loads one organisation may run at once on this instance, all its sessions together. */
  RANGE_LOADS_PER_ORGANISATION: z.coerce.number().int().min(1).max(10_000).default(16),
  /** How long a range load over either limit waits for a turn before its 429; 0: refused at once. */
  RANGE_LOAD_WAIT_S: z.coerce.number().int().min(0).max(60).default(5),
  /** Upstream requests one organisation may have in flight at once, of the process's UPSTREAM_SOCKETS. */
  UPSTREAM_REQUESTS_PER_ORGANISATION: z.coerce.number().int().min(1).max(UPSTREAM_SOCKETS).default(UPSTREAM_SOCKETS / 2),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Comma-separated older secrets still accepted for reading cookies (rotation). */
  SESSION_SECRET_PREVIOUS: z.string().optional(),
  SESSION_TTL_S: seconds(12 * 3600),
  SESSION_IDLE_S: seconds(30 * 60),
  /** Sign-in attempts per client address a minute. */
  SIGNIN_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Failed sign-ins per client address in 15 minutes (the second half of them slowed down), then 15 minutes refused. */
  SIGNIN_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Upstream auth calls per client ID a second, for all instances together when REDIS_URL is set. */
  SIGNIN_AUTH_CALLS_PER_CLIENT: z.coerce.number().int().min(1).max(1000).default(2),
  /** Proxies in front of the app that append to X-Forwarded-For; 0: the client address is the socket's. */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Shared revocation list, token cache and sign-in limits for several instances, e.g. redis://127.0.0.1:6379/0 */
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  /** Public origin when behind a proxy that rewrites Host, e.g. https://dashboard.example.com */
  APP_ORIGIN: z.url().optional(),
  /** The organisations' settings in PostgreSQL (any number of instances), e.g. postgres://app@db:5432/dashboard */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  /** Without DATABASE_URL: the embedded database's directory (one instance only), relative to the working directory. */
  SETTINGS_DATA_DIR: z.string().default('.data/settings'),
  ...ServerEnvSchema.shape,
});

export type AppConfig = {
  demo: boolean;
  baseUrl: string;
  version: z.infer<typeof ApiVersionSchema>;
  timeoutMs: number;
  /** Upstream requests one range load starts with in flight, and the most it may grow to. */
  concurrency: number;
  maxConcurrency: number;
  /** How many range loads run at once per session and per organisation, and how long one over waits. */
  rangeLoads: { perSession: number; perOrganisation: number; waitMs: number };
  /** Upstream requests one organisation may have in flight at once (of UPSTREAM_SOCKETS). */
  upstreamPerOrganisation: number;
  signInPerIp: number;
  redisUrl?: string;
  signInFailuresPerIp: number;
  signInAuthCallsPerClient: number;
  trustedProxyHops: number;
  /** iron-session passwords: the highest key seals, every key unseals. */
  sessionPasswords: Record<string, string>;
  sessionTtlS: number;
  sessionIdleS: number;
  appOrigin?: string;
  /** Where the organisations' settings live: PostgreSQL when set, else the embedded database in `settingsDataDir`. */
  databaseUrl?: string;
  settingsDataDir: string;
  server: ServerSettings;
};

function load(env: Record<string, string | undefined>): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  // Unset, the most follows a start set above its default; set, it must leave room for the start.
  const maxConcurrency = e.BATCH_API_MAX_CONCURRENCY ?? Math.max(DEFAULT_MAX_CONCURRENCY, e.BATCH_API_CONCURRENCY);
  if (maxConcurrency < e.BATCH_API_CONCURRENCY) {
    throw new Error(
      `Invalid configuration: BATCH_API_MAX_CONCURRENCY (${maxConcurrency}) must be at least BATCH_API_CONCURRENCY (${e.BATCH_API_CONCURRENCY}), the level a load starts at`,
    );
  }
  const demo = e.DASHBOARD_DEMO === '1';
  if (cleaned.SIGNIN_FAILURES_PER_CLIENT !== undefined) {
    // Failures counted per client ID could lock an organisation out; they count per address now.
    console.warn(
      '\n  WARNING: SIGNIN_FAILURES_PER_CLIENT is no longer read. Failed sign-ins count per client address\n' +
        '  (SIGNIN_FAILURES_PER_IP); a client ID only has a rate of auth calls (SIGNIN_AUTH_CALLS_PER_CLIENT).\n',
    );
  }
  let secret = e.SESSION_SECRET;
  if (!secret) {
    if (e.NODE_ENV === 'production' && !demo) {
      throw new Error('Invalid configuration: SESSION_SECRET is required in production (at least 32 characters)');
    }
    secret = randomBytes(32).toString('base64url');
    console.warn(
      '\n  WARNING: SESSION_SECRET is not set. A random one was generated for this run: sessions end when the\n' +
        '  server restarts. Set SESSION_SECRET (32+ characters) for anything but a demo.\n',
    );
  }
  const previous = (e.SESSION_SECRET_PREVIOUS ?? '').split(',').filter(Boolean);
  if (previous.some((p) => p.length < 32)) {
    throw new Error('Invalid configuration: SESSION_SECRET_PREVIOUS entries must be at least 32 characters');
  }
  const passwords: Record<string, string> = {};
  [...previous, secret].forEach((p, i) => (passwords[String(i + 1)] = p));
  return {
    demo,
    baseUrl: e.BATCH_API_BASE_URL,
    version: e.BATCH_API_VERSION,
    timeoutMs: e.BATCH_API_TIMEOUT_MS,
    concurrency: e.BATCH_API_CONCURRENCY,
    maxConcurrency,
    rangeLoads: { perSession: e.RANGE_LOADS_PER_SESSION, perOrganisation: e.RANGE_LOADS_PER_ORGANISATION, waitMs: e.RANGE_LOAD_WAIT_S * 1000 },
    upstreamPerOrganisation: e.UPSTREAM_REQUESTS_PER_ORGANISATION,
    signInPerIp: e.SIGNIN_ATTEMPTS_PER_IP,
    redisUrl: e.REDIS_URL,
    signInFailuresPerIp: e.SIGNIN_FAILURES_PER_IP,
    signInAuthCallsPerClient: e.SIGNIN_AUTH_CALLS_PER_CLIENT,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    sessionPasswords: passwords,
    sessionTtlS: e.SESSION_TTL_S,
    sessionIdleS: e.SESSION_IDLE_S,
    appOrigin: e.APP_ORIGIN ? new URL(e.APP_ORIGIN).origin : undefined,
    databaseUrl: e.DATABASE_URL,
    settingsDataDir: resolve(e.SETTINGS_DATA_DIR),
    server: serverSettings(e),
  };
}

const holder = globalThis as unknown as { __appConfig?: AppConfig };

/** Read and validated once per process; a bad variable stops start-up with its name. */
export function getConfig(): AppConfig {
  holder.__appConfig ??= load(process.env);
  return holder.__appConfig;
}

export { load as loadConfigForTest };
