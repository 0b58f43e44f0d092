import { createHash } from 'node:crypto';
import { sleep } from '../async/sleep';

export type CachedToken = {
  token: string;
  /** When it stops being good (renewed a little before), or null when the service did not say. */
  expiresAt: number | null;
  /** When we received it: a renewed token must be newer than the one the service refused. */
  issuedAt: number;
};

/** Where tokens live. Memory by default; a shared store lets several app instances use one token. */
export interface TokenStore {
  get(key: string): Promise<CachedToken | undefined>;
  set(key: string, value: CachedToken): Promise<void>;
  /** Removes the entry only while it still holds `token`, so a fresher token fetched meanwhile survives. */
  delete(key: string, token: string): Promise<void>;
  /**
   * A short lock around fetching a token for `key`, for stores shared by several instances: the release, or
   * null when another instance holds it (and will store the token it fetches).
   */
  lock?(key: string, ttlMs: number): Promise<(() => Promise<void>) | null>;
  /** Whether another instance still holds that lock (it may have failed and let go without a token). */
  isLocked?(key: string): Promise<boolean>;
}

export class MemoryTokenStore implements TokenStore {
  private entries = new Map<string, CachedToken>();

  async get(key: string) {
    return this.entries.get(key);
  }

  async set(key: string, value: CachedToken) {
    this.entries.set(key, value);
  }

  async delete(key: string, token: string) {
    if (this.entries.get(key)?.token === token) this.entries.delete(key);
  }
}

/** How long an instance may hold the fetch lock, and how often the others look for its token meanwhile. */
const LOCK_MS = 5_000;
const POLL_MS = 50;

/**
 * Access tokens per set of client credentials, with one sign-in under way per key: in this process
 * (single-flight), and across instances when the store can lock. A hundred callers after expiry cause one
 * auth request, not a hundred, nor one per instance.
 */
export class TokenCache {
  private inFlight = new Map<string, Promise<CachedToken>>();

  constructor(
    private store: TokenStore = new MemoryTokenStore(),
    private now: () => number = () => Date.now(),
  ) {}

  /** The key covers the secret too: a wrong secret must never be served a token fetched with the right one. */
  static keyFor(parts: { baseUrl: string; version: string; clientId: string; clientSecret: string }): string {
    return createHash('sha256')
      .update(JSON.stringify([parts.baseUrl, parts.version, parts.clientId, parts.clientSecret]))
      .digest('hex');
  }

  /** Drops the token kept for `key` (credentials replaced): nothing fetched with them is served again. */
  async forget(key: string): Promise<void> {
    const cached = await this.store.get(key);
    if (cached) await this.store.delete(key, cached.token);
  }

  async get(key: string, fetchToken: () => Promise<CachedToken>): Promise<CachedToken> {
    return (await this.usable(key)) ?? this.fetchNew(key, fetchToken, { after: -Infinity });
  }

  /**
   * After the service refused `stale`: a newer token another caller already has is reused, otherwise one new
   * token is fetched for everyone waiting. Whatever comes back was issued after `stale`.
   */
  async renew(key: string, stale: CachedToken, fetchToken: () => Promise<CachedToken>): Promise<CachedToken> {
    const pending = this.inFlight.get(key);
    if (pending) {
      const theirs = await pending;
      if (theirs.issuedAt > stale.issuedAt) return theirs;
    }
    const cached = await this.usable(key);
    if (cached && cached.issuedAt > stale.issuedAt) return cached;
    await this.store.delete(key, stale.token);
    return this.fetchNew(key, fetchToken, { after: stale.issuedAt });
  }

  /**
   * A new token (shared with any fetch already under way in this process). `shared: false` skips waiting for
   * another instance's fetch: a sign-in proves the credentials with a request of its own.
   */
  fetchNew(
    key: string,
    fetchToken: () => Promise<CachedToken>,
    options: { after?: number; shared?: boolean } = {},
  ): Promise<CachedToken> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = (async () => {
      try {
        const release = options.shared === false ? undefined : await this.store.lock?.(key, LOCK_MS);
        if (release === null) {
          const theirs = await this.awaitOthers(key, options.after ?? -Infinity);
          if (theirs) return theirs;
        }
        try {
          const fresh = await fetchToken();
          await this.store.set(key, fresh);
          return fresh;
        } finally {
          await release?.();
        }
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, promise);
    return promise;
  }

  /**
   * Another instance is fetching: its token, once stored (newer than `after`), or undefined when its lock is
   * gone without one (it failed: we fetch ourselves at once) or lapses.
   */
  private async awaitOthers(key: string, after: number): Promise<CachedToken | undefined> {
    const until = this.now() + LOCK_MS;
    while (this.now() < until) {
      await sleep(POLL_MS);
      const cached = await this.usable(key);
      if (cached && cached.issuedAt > after) return cached;
      if (this.store.isLocked && !(await this.store.isLocked(key))) return undefined;
    }
    return undefined;
  }

  private async usable(key: string): Promise<CachedToken | undefined> {
    const cached = await this.store.get(key);
    return cached && (cached.expiresAt === null || cached.expiresAt > this.now()) ? cached : undefined;
  }
}
