import { z } from 'zod';

const intFrom = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Every switch of the sandbox, read from the environment once. Names match the README table. */
export const SandboxConfigSchema = z.object({
  port: intFrom(0, 65535).default(4010),
  host: z.string().min(1).default('127.0.0.1'),
  pageSize: intFrom(1, 10_000).default(100),
  tokenTtlS: z.coerce.number().positive().max(86_400).default(900),
  batches: intFrom(0, 1_000_000).default(3000),
  latencyMs: intFrom(0, 60_000).default(0),
  fail503Rate: z.coerce.number().min(0).max(1).default(0),
  fail503Every: intFrom(0, 1_000_000).default(0),
  retryAfterS: intFrom(0, 3600).optional(),
  /** Most batch requests of one organisation in flight at once (a gateway's rate limit); unset: none. */
  rateLimitConcurrent: intFrom(1, 1000).optional(),
  rateLimitRetryAfterS: intFrom(0, 3600).default(1),
  seed: z.string().min(1).default('tray-scan'),
  /** End of the generated history (exclusive); defaults to the current hour so presets like "last 7 days" have data. */
  anchor: z.coerce.date().optional(),
  /**
   * The sandbox's origin as browsers reach it (a proxy's or a container's published address), for the batches'
   * analysis links; unset: `http://<host>:<port>` as it listens (`localhost` when it listens on every interface).
   */
  publicUrl: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine((u) => !/[?#]/.test(u), 'must have no query or fragment')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
});

export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
export type SandboxOptions = z.input<typeof SandboxConfigSchema>;

export const ENV_NAMES: Record<keyof SandboxConfig, string> = {
  port: 'SANDBOX_PORT',
  host: 'SANDBOX_HOST',
  pageSize: 'SANDBOX_PAGE_SIZE',
  tokenTtlS: 'SANDBOX_TOKEN_TTL_S',
  batches: 'SANDBOX_BATCHES',
  latencyMs: 'SANDBOX_LATENCY_MS',
  fail503Rate: 'SANDBOX_FAIL_503_RATE',
  fail503Every: 'SANDBOX_FAIL_503_EVERY',
  retryAfterS: 'SANDBOX_RETRY_AFTER_S',
  rateLimitConcurrent: 'SANDBOX_RATE_LIMIT_CONCURRENT',
  rateLimitRetryAfterS: 'SANDBOX_RATE_LIMIT_RETRY_AFTER_S',
  seed: 'SANDBOX_SEED',
  anchor: 'SANDBOX_ANCHOR',
  publicUrl: 'SANDBOX_PUBLIC_URL',
};

export function parseSandboxOptions(options: SandboxOptions = {}): SandboxConfig {
  const parsed = SandboxConfigSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0] as keyof SandboxConfig;
    throw new Error(`Invalid sandbox setting ${ENV_NAMES[key] ?? key}: ${issue.message}`);
  }
  return parsed.data;
}

export function sandboxConfigFromEnv(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const options: Record<string, string> = {};
  for (const [key, name] of Object.entries(ENV_NAMES)) {
    const value = env[name];
    if (value !== undefined && value !== '') options[key] = value;
  }
  return parseSandboxOptions(options as SandboxOptions);
}

/** Addresses that mean every interface: a browser cannot open a link to them. */
const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

/** A host as a URL writes it (an IPv6 address in brackets). */
export const hostInUrl = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** The sandbox's origin as browsers reach it: SANDBOX_PUBLIC_URL, else where it listens (`localhost` for every interface). */
export function publicUrlOf(config: Pick<SandboxConfig, 'host' | 'publicUrl'>, port: number): string {
  return config.publicUrl ?? `http://${hostInUrl(ANY_ADDRESS.has(config.host) ? 'localhost' : config.host)}:${port}`;
}
