import { createHash } from 'node:crypto';

export type CachedToken = { token: string; expiresAt: number | null };

/** Where tokens live. Memory by default; a shared store lets several app instances use one token. */
export interface TokenStore {
  get(key: string): Promise<CachedToken | undefined>;
  set(key: string, value: CachedToken): Promise<void>;
  /** Removes the entry only while it still holds `token`, so a fresher token fetched meanwhile survives. */
  delete(key: string, token: string): Promise<void>;
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

/**
 * Access tokens per set of client credentials, with one in-flight sign-in per key (single-flight):
 * a hundred concurrent callers after expiry cause one auth request, not a hundred.
 */
export class TokenCache {
  private inFlight = new Map<string, Promise<string>>();

  constructor(
    private store: TokenStore = new MemoryTokenStore(),
    private now: () => number = Date.now,
  ) {}

  /** The key covers the secret too: a wrong secret must never be served a token fetched with the right one. */
  static keyFor(parts: { baseUrl: string; version: string; clientId: string; clientSecret: string }): string {
    return createHash('sha256')
      .update(JSON.stringify([parts.baseUrl, parts.version, parts.clientId, parts.clientSecret]))
      .digest('hex');
  }

  async get(key: string, fetchToken: () => Promise<CachedToken>): Promise<string> {
    const cached = await this.usable(key);
    return cached ? cached.token : this.fetchNew(key, fetchToken);
  }

  /**
   * After the service refused `stale`: a token another caller already fetched is reused,
   * otherwise one new token is fetched for everyone waiting.
   */
  async renew(key: string, stale: string, fetchToken: () => Promise<CachedToken>): Promise<string> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const cached = await this.usable(key);
    if (cached && cached.token !== stale) return cached.token;
    await this.store.delete(key, stale);
    return this.fetchNew(key, fetchToken);
  }

  /** A new token regardless of the cache (shared with any fetch already under way). */
  fetchNew(key: string, fetchToken: () => Promise<CachedToken>): Promise<string> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = (async () => {
      try {
        const fresh = await fetchToken();
        await this.store.set(key, fresh);
        return fresh.token;
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, promise);
    return promise;
  }

  private async usable(key: string): Promise<CachedToken | undefined> {
    const cached = await this.store.get(key);
    return cached && (cached.expiresAt === null || cached.expiresAt > this.now()) ? cached : undefined;
  }
}
