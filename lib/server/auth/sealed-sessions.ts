import 'server-only';
import { unsealData } from 'iron-session';
import { canonicalSealExpiry } from './iron-seal';
import { logLine } from '../logging';

/**
 * Opened session cookies, by their sealed text. Unsealing is several WebCrypto calls (key derivation, HMAC,
 * AES) on every API request, about 1 ms; the same sealed text always opens to the same data, so it is done
 * once per cookie value. Only what the seal itself proves is kept: lifetime, idle timeout and revocation are
 * still judged on every request by the caller. An entry ends with the seal's own expiry, and the map is
 * bounded (oldest first out), so a flood of cookies costs at most MAX_ENTRIES small records.
 */
const MAX_ENTRIES = 1000;

type Entry = { data: Readonly<Record<string, unknown>>; expiresAt: number };
type Unseal = (
  seal: string,
  options: { password: Record<string, string>; ttl: number },
) => Promise<Record<string, unknown>>;

export class SealedSessionCache {
  private entries = new Map<string, Entry>();
  private passwordIds: ReadonlySet<string>;

  constructor(
    private passwords: Record<string, string>,
    private ttlS: number,
    private now: () => number = Date.now,
    private unseal: Unseal = unsealData,
  ) {
    this.passwordIds = new Set(Object.keys(passwords));
  }

  /**
   * The data sealed in `seal`, or `{}` when it does not open: not iron-session's exact seal under one of our
   * password ids (refused before any crypto, see iron-seal.ts), tampered, foreign, expired. Never throws: a cookie
   * is whatever the browser sends, and one that cannot be opened is no session.
   */
  async open<T extends object>(seal: string | undefined): Promise<Partial<T>> {
    if (!seal) return {};
    const hit = this.entries.get(seal);
    if (hit && hit.expiresAt > this.now()) return { ...hit.data } as Partial<T>;
    if (hit) this.entries.delete(seal);
    const expiresAt = canonicalSealExpiry(seal, this.passwordIds);
    if (expiresAt === null) return {};
    const data = await this.unsealOrNothing(seal);
    if (Object.keys(data).length > 0) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(seal, { data: Object.freeze({ ...data }), expiresAt });
    }
    return { ...data } as Partial<T>;
  }

  private async unsealOrNothing(seal: string): Promise<Record<string, unknown>> {
    try {
      const data: unknown = await this.unseal(seal, { password: this.passwords, ttl: this.ttlS });
      return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    } catch (error) {
      // iron-session answers a bad HMAC or an expired seal with {} itself; anything thrown past the form check is
      // unexpected, so it is logged, by its kind only (a message could quote decrypted text).
      logLine('warn', 'a session cookie in seal form did not open', {
        error: error instanceof Error ? error.name : typeof error,
      });
      return {};
    }
  }

  /** Drops an opened cookie (sign-out): its data, the client secret included, need not stay in memory. */
  forget(seal: string | undefined): void {
    if (seal) this.entries.delete(seal);
  }
}
