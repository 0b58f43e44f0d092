import { z } from 'zod';
import type { SandboxConfig } from './config';
import { createRandom, type Random } from './data/random';

/**
 * One-off faults. Besides the service's own (503, 500, a bad body, a dropped or silent connection), those a
 * real deployment adds: a reverse proxy's HTML 502 and 504 pages, a rate limiter's 429, a crashed framework's
 * text/plain 500, and a validation error answered as a list-shaped `detail`; and a token refused however
 * fresh it is (a service that lost its token store).
 */
export const FAULT_KINDS = [
  '503',
  '500',
  'malformed-json',
  'wrong-shape',
  'truncated',
  'reset',
  'hang',
  'gateway-502',
  'gateway-504',
  '429',
  'crash-500',
  'validation-list',
  'token-refused',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const FaultSettingsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000),
    fail503Rate: z.number().min(0).max(1),
    fail503Every: z.number().int().min(0),
    retryAfterS: z.number().int().min(0).max(3600).nullable(),
    tokenTtlS: z.number().positive().max(86_400),
    /** Every request, auth included, answers 503 while true. */
    outage: z.boolean(),
    /** Most batch requests of one organisation in flight at once; one more is answered 429 (null: no limit). */
    rateLimitConcurrent: z.number().int().min(1).max(1000).nullable(),
    /** Retry-After of those 429s, in seconds. */
    rateLimitRetryAfterS: z.number().int().min(0).max(3600),
  })
  .partial()
  .strict();
export type FaultSettings = z.infer<typeof FaultSettingsSchema>;

export const InjectSchema = z
  .object({
    kind: z.enum(FAULT_KINDS),
    count: z.number().int().min(1).max(10_000).default(1),
    target: z.enum(['auth', 'batches', 'any']).default('batches'),
  })
  .strict();
export type Injection = z.infer<typeof InjectSchema>;

/** The switches of the sandbox that can change while it runs (environment sets their start value). */
export class Faults {
  // Set by reset(), from the constructor on.
  latencyMs!: number;
  fail503Rate!: number;
  fail503Every!: number;
  retryAfterS!: number | null;
  rateLimitConcurrent!: number | null;
  rateLimitRetryAfterS!: number;
  outage!: boolean;
  private queue!: Injection[];
  private batchRequests!: number;
  private random!: Random;

  constructor(private config: SandboxConfig) {
    this.reset();
  }

  /** The start-up settings (back to them on reset): no injections, no outage, counters at zero. */
  reset() {
    this.latencyMs = this.config.latencyMs;
    this.fail503Rate = this.config.fail503Rate;
    this.fail503Every = this.config.fail503Every;
    this.retryAfterS = this.config.retryAfterS ?? null;
    this.rateLimitConcurrent = this.config.rateLimitConcurrent ?? null;
    this.rateLimitRetryAfterS = this.config.rateLimitRetryAfterS;
    this.outage = false;
    this.queue = [];
    this.batchRequests = 0;
    this.random = createRandom(`${this.config.seed}/faults`);
  }

  inject(injection: Injection) {
    this.queue.push({ ...injection });
  }

  /** The fault this request suffers, if any. Counting happens here, once per request. */
  pick(target: 'auth' | 'batches'): FaultKind | null {
    if (this.outage) return '503';
    const i = this.queue.findIndex((q) => q.target === target || q.target === 'any');
    if (i >= 0) {
      const injection = this.queue[i]!;
      if (--injection.count <= 0) this.queue.splice(i, 1);
      return injection.kind;
    }
    if (target !== 'batches') return null;
    this.batchRequests++;
    if (this.fail503Every > 0 && this.batchRequests % this.fail503Every === 0) return '503';
    if (this.fail503Rate > 0 && this.random.next() < this.fail503Rate) return '503';
    return null;
  }

  snapshot() {
    return {
      latencyMs: this.latencyMs,
      fail503Rate: this.fail503Rate,
      fail503Every: this.fail503Every,
      retryAfterS: this.retryAfterS,
      rateLimitConcurrent: this.rateLimitConcurrent,
      rateLimitRetryAfterS: this.rateLimitRetryAfterS,
      outage: this.outage,
      pendingInjections: this.queue.map((q) => ({ ...q })),
    };
  }
}
