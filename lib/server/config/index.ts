import 'server-only';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { sessionPasswordsOf } from '../auth/session-keys';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY } from '../../batch-api/range-load';
import { UPSTREAM_SOCKETS } from '../../batch-api/keep-alive-fetch';
import { ApiVersionSchema } from '../../batch-api/schemas';
import { OidcEnvSchema, oidcSettings, type OidcSettings } from '../auth/oidc/settings';
import { parseCredentialsKey, type CredentialsKey } from '../org/credentials-crypto';
import { SLUG } from '../org/slug';

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const port = z.coerce.number().int().min(1).max(65_535);

/** Where and how the production server (server/main.ts) listens, reports and stops. */
const ServerEnvSchema = z.object({
  /** The interface the app listens on: loopback unless told otherwise. */
  HOST: z
    .string()
    .regex(/^[\w.:-]+$/, 'must be a host name or an IP address')
    .default('127.0.0.1'),
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
export type ServerSettings = {
  host: string;
  port: number;
  metricsPort?: number;
  metricsToken?: string;
  shutdownGraceS: number;
};

function serverSettings(e: z.infer<typeof ServerEnvSchema>): ServerSettings {
  return {
    host: e.HOST,
    port: e.PORT,
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    shutdownGraceS: e.SHUTDOWN_GRACE_S,
  };
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
  UPSTREAM_REQUESTS_PER_ORGANISATION: z.coerce
    .number()
    .int()
    .min(1)
    .max(UPSTREAM_SOCKETS)
    .default(UPSTREAM_SOCKETS / 2),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Comma-separated older secrets still accepted for reading cookies (rotation). */
  SESSION_SECRET_PREVIOUS: z.string().optional(),
  SESSION_TTL_S: seconds(12 * 3600),
  SESSION_IDLE_S: seconds(30 * 60),
  /** Sign-in attempts per client address a minute. */
  SIGNIN_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Failed sign-ins per client address a day, whoever they were for; past it, that address waits for the day to end. */
  SIGNIN_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Failed sign-ins in a row for one e-mail address from one client address; past it, that pair waits an hour. */
  SIGNIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(10),
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
  /** 32 bytes, base64: encrypts the organisations' client secrets at rest (AES-256-GCM). */
  CREDENTIALS_KEY: z.string().optional(),
  /** Comma-separated older keys, to decrypt only (rotation; re-encrypted under CREDENTIALS_KEY at start-up). */
  CREDENTIALS_KEY_PREVIOUS: z.string().optional(),
  /** The first organisation, created when none exists: its client ID, secret, name and slug. */
  BATCH_API_CLIENT_ID: z.string().max(256).optional(),
  BATCH_API_CLIENT_SECRET: z.string().max(1024).optional(),
  ORGANISATION_NAME: z.string().max(120).optional(),
  ORGANISATION_SLUG: z.string().regex(SLUG, 'must be lower-case letters, digits and dashes (at most 40)').optional(),
  /** The first administrator, created when nobody exists. */
  ADMIN_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').max(1024).optional(),
  /** A JSON file of organisations and people to create when missing, at every start. */
  PROVISIONING_FILE: z.string().optional(),
  /** How often the alert watcher checks each organisation with a rule, in seconds (at least 5). */
  WATCH_INTERVAL_S: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(5, 'must be at least 5 (seconds)')
    .max(86_400, 'must be at most 86400 (a day)')
    .default(300),
  /** `1`: webhooks may point at loopback and private addresses (a test rig, an intranet); off by default (SSRF). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1'], { error: 'must be 1 (allow) or 0' }).optional(),
  /** The mail server alerts, reports and invites go through, e.g. smtp://user:pass@mail.example.com:587 */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  /** The sender of those e-mails, e.g. `Tray scans <alerts@example.com>`. */
  MAIL_FROM: z.string().min(3).max(320).optional(),
  /** Without SMTP_URL: the folder e-mails are written to as .eml files (the demo's), relative to the working directory. */
  MAIL_DIR: z.string().optional(),
  /** A Chromium the server may start to print scheduled reports as PDF (e.g. /usr/bin/chromium); without it the e-mail links to Print report. */
  PDF_CHROMIUM_PATH: z
    .string()
    .refine(executable, 'must be the path of an executable Chromium (e.g. /usr/bin/chromium)')
    .optional(),
  ...OidcEnvSchema.shape,
  ...ServerEnvSchema.shape,
});

/** Whether `path` is a file this process may run. */
function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** What provisioning creates when it is missing (lib/server/org/provisioning.ts). */
export type ProvisioningConfig = {
  organisation?: { clientId: string; clientSecret: string; name: string; slug?: string };
  admin?: { email: string; password: string };
  file?: string;
};

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
  signInFailuresPerAccount: number;
  trustedProxyHops: number;
  /** Every session secret by its id (lib/server/session-keys.ts): each opens a seal. */
  sessionPasswords: Record<string, string>;
  /** The current session secret: it seals, and keys what derives from the session secret. */
  sessionSecret: string;
  sessionTtlS: number;
  sessionIdleS: number;
  appOrigin?: string;
  /** Where the organisations' settings live: PostgreSQL when set, else the embedded database in `settingsDataDir`. */
  databaseUrl?: string;
  settingsDataDir: string;
  /** Encrypts the organisations' client secrets; older keys decrypt only. */
  credentialsKey: CredentialsKey;
  previousCredentialsKeys: CredentialsKey[];
  provisioning: ProvisioningConfig;
  /** Single sign-on over OpenID Connect, when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set. */
  oidc?: OidcSettings;
  server: ServerSettings;
  /** Alerts: the watcher's interval, whether webhooks may reach private addresses, and how mail goes out. */
  alerts: { watchIntervalS: number; allowPrivateWebhooks: boolean };
  mail: { smtpUrl?: string; from: string; dir: string };
  /** Scheduled reports: the Chromium that prints their PDF, when there is one. */
  reports: { pdfChromium?: string };
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
  for (const gone of ['SIGNIN_FAILURES_PER_CLIENT', 'SIGNIN_AUTH_CALLS_PER_CLIENT']) {
    if (cleaned[gone] === undefined) continue;
    // People sign in with their own e-mail and password: nothing is counted per client ID any more.
    console.warn(
      `\n  WARNING: ${gone} is no longer read. Failed sign-ins count per e-mail and client address\n` +
        '  (SIGNIN_FAILURES_PER_ACCOUNT) and per client address (SIGNIN_FAILURES_PER_IP).\n',
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
  const passwords = sessionPasswordsOf(secret, previous);
  return {
    ...core(e, demo, maxConcurrency, secret, passwords),
    credentialsKey: credentialsKeyOf(e, demo),
    previousCredentialsKeys: list(e.CREDENTIALS_KEY_PREVIOUS).map((k) =>
      parseCredentialsKey(k, 'CREDENTIALS_KEY_PREVIOUS'),
    ),
    provisioning: provisioningOf(e),
  };
}

type Env = z.infer<typeof EnvSchema>;

function core(e: Env, demo: boolean, maxConcurrency: number, secret: string, passwords: Record<string, string>) {
  return {
    demo,
    baseUrl: e.BATCH_API_BASE_URL,
    version: e.BATCH_API_VERSION,
    timeoutMs: e.BATCH_API_TIMEOUT_MS,
    concurrency: e.BATCH_API_CONCURRENCY,
    maxConcurrency,
    rangeLoads: {
      perSession: e.RANGE_LOADS_PER_SESSION,
      perOrganisation: e.RANGE_LOADS_PER_ORGANISATION,
      waitMs: e.RANGE_LOAD_WAIT_S * 1000,
    },
    upstreamPerOrganisation: e.UPSTREAM_REQUESTS_PER_ORGANISATION,
    signInPerIp: e.SIGNIN_ATTEMPTS_PER_IP,
    redisUrl: e.REDIS_URL,
    signInFailuresPerIp: e.SIGNIN_FAILURES_PER_IP,
    signInFailuresPerAccount: e.SIGNIN_FAILURES_PER_ACCOUNT,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    sessionPasswords: passwords,
    sessionSecret: secret,
    sessionTtlS: e.SESSION_TTL_S,
    sessionIdleS: e.SESSION_IDLE_S,
    appOrigin: e.APP_ORIGIN ? new URL(e.APP_ORIGIN).origin : undefined,
    databaseUrl: e.DATABASE_URL,
    settingsDataDir: resolve(e.SETTINGS_DATA_DIR),
    oidc: oidcSettings(e),
    server: serverSettings(e),
    alerts: { watchIntervalS: e.WATCH_INTERVAL_S, allowPrivateWebhooks: e.WEBHOOK_ALLOW_PRIVATE === '1' },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? 'Tray scan dashboard <alerts@localhost>',
      // Beside the embedded database by default, so that the demo's e-mails are found next to its data.
      dir: resolve(e.MAIL_DIR ?? resolve(e.SETTINGS_DATA_DIR, '..', 'mail')),
    },
    reports: { pdfChromium: e.PDF_CHROMIUM_PATH },
  };
}

/** CREDENTIALS_KEY, required in production as SESSION_SECRET is; elsewhere one for this run, with a warning. */
function credentialsKeyOf(e: Env, demo: boolean): CredentialsKey {
  if (e.CREDENTIALS_KEY) return parseCredentialsKey(e.CREDENTIALS_KEY, 'CREDENTIALS_KEY');
  if (e.NODE_ENV === 'production' && !demo) {
    throw new Error(
      'Invalid configuration: CREDENTIALS_KEY is required in production (32 random bytes in base64, e.g. `openssl rand -base64 32`)',
    );
  }
  console.warn(
    '\n  WARNING: CREDENTIALS_KEY is not set. A random one was generated for this run: client secrets saved now\n' +
      '  cannot be read after a restart. Set CREDENTIALS_KEY (openssl rand -base64 32) for anything but a test.\n',
  );
  return parseCredentialsKey(randomBytes(32).toString('base64'), 'CREDENTIALS_KEY');
}

function provisioningOf(e: Env): ProvisioningConfig {
  const named = [e.BATCH_API_CLIENT_ID, e.BATCH_API_CLIENT_SECRET, e.ORGANISATION_NAME];
  if (named.some(Boolean) && !named.every(Boolean)) {
    throw new Error(
      'Invalid configuration: BATCH_API_CLIENT_ID, BATCH_API_CLIENT_SECRET and ORGANISATION_NAME go together (the first organisation)',
    );
  }
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new Error('Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD go together (the first administrator)');
  }
  return {
    organisation: e.BATCH_API_CLIENT_ID
      ? {
          clientId: e.BATCH_API_CLIENT_ID,
          clientSecret: e.BATCH_API_CLIENT_SECRET!,
          name: e.ORGANISATION_NAME!,
          slug: e.ORGANISATION_SLUG,
        }
      : undefined,
    admin: e.ADMIN_EMAIL ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD! } : undefined,
    file: e.PROVISIONING_FILE ? resolve(e.PROVISIONING_FILE) : undefined,
  };
}

const holder = globalThis as unknown as { __appConfig?: AppConfig };

/** Read and validated once per process; a bad variable stops start-up with its name. */
export function getConfig(): AppConfig {
  holder.__appConfig ??= load(process.env);
  return holder.__appConfig;
}

export { load as loadConfigForTest };

const DatabaseEnvSchema = EnvSchema.pick({ DATABASE_URL: true, SETTINGS_DATA_DIR: true });

/**
 * Where the settings database is, from DATABASE_URL and SETTINGS_DATA_DIR alone: what the database scripts
 * (npm run db:*) need, without the rest of the app's configuration.
 */
export function databasePlaceOf(
  env: Record<string, string | undefined>,
): { databaseUrl: string } | { dataDir: string } {
  const parsed = DatabaseEnvSchema.safeParse({
    DATABASE_URL: env.DATABASE_URL || undefined,
    SETTINGS_DATA_DIR: env.SETTINGS_DATA_DIR || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const { DATABASE_URL, SETTINGS_DATA_DIR } = parsed.data;
  return DATABASE_URL ? { databaseUrl: DATABASE_URL } : { dataDir: resolve(SETTINGS_DATA_DIR) };
}
