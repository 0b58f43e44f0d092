import 'server-only';
import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import { REDIS_PREFIX } from './redis-connection';

export type Credentials = { clientId: string; clientSecret: string };

/** How long a verified sign-in keeps its place in the priority lane. */
const VERIFIED_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Credentials the auth endpoint accepted lately, by a keyed hash: HMAC-SHA-256 of the client ID and secret
 * under a key derived from SESSION_SECRET, never the secret itself. The store alone tells nothing about a
 * secret; whoever also holds SESSION_SECRET could test guesses against it offline, but that secret already
 * opens every session cookie, which carries the client secret itself. A sign-in with such credentials skips
 * the per-client-ID queue (it still asks the auth endpoint): the organisation's people get in while others
 * guess its secret.
 */
export interface VerifiedSignIns {
  has(credentials: Credentials): Promise<boolean>;
  add(credentials: Credentials): Promise<void>;
}

export function verifiedKey(sessionSecret: string): Buffer {
  return createHmac('sha256', sessionSecret).update('tsb sign-in priority lane v1').digest();
}

function digest(key: Buffer, { clientId, clientSecret }: Credentials): string {
  return createHmac('sha256', key).update(JSON.stringify([clientId, clientSecret])).digest('base64url');
}

/** Most entries kept in memory; the oldest go first (losing one only loses a fast lane, never unlocks). */
const MAX_ENTRIES = 10_000;

export class MemoryVerifiedSignIns implements VerifiedSignIns {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  async has(credentials: Credentials) {
    const hash = digest(this.key, credentials);
    const until = this.entries.get(hash);
    if (until !== undefined && until <= this.now()) this.entries.delete(hash);
    return until !== undefined && until > this.now();
  }

  async add(credentials: Credentials) {
    const hash = digest(this.key, credentials);
    this.entries.delete(hash);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, this.now() + VERIFIED_TTL_MS);
  }

  get size() {
    return this.entries.size;
  }
}

/**
 * Shared by every instance. While Redis cannot answer (or the connection is not ready: ioredis would hold
 * the command through its reconnection attempts), a sign-in simply takes the queue.
 */
export class RedisVerifiedSignIns implements VerifiedSignIns {
  constructor(
    private readonly redis: Redis,
    private readonly key: Buffer,
  ) {}

  private name(credentials: Credentials) {
    return `${REDIS_PREFIX}signin-verified:${digest(this.key, credentials)}`;
  }

  async has(credentials: Credentials) {
    if (this.redis.status !== 'ready') return false;
    try {
      return (await this.redis.exists(this.name(credentials))) === 1;
    } catch {
      return false;
    }
  }

  async add(credentials: Credentials) {
    if (this.redis.status !== 'ready') return;
    try {
      await this.redis.set(this.name(credentials), '1', 'PX', VERIFIED_TTL_MS);
    } catch {
      // This sign-in worked; the next one may wait in the queue.
    }
  }
}
