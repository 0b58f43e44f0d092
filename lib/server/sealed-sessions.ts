import 'server-only';
import { unsealData } from 'iron-session';

/**
 * Opened session cookies, by their sealed text. Unsealing is several WebCrypto calls (key derivation, HMAC,
 * AES) on every API request, about 1 ms; the same sealed text always opens to the same data, so it is done
 * once per cookie value. Only what the seal itself proves is kept: lifetime, idle timeout and revocation are
 * still judged on every request by the caller. An entry ends with the seal's own expiry, and the map is
 * bounded (oldest first out), so a flood of cookies costs at most MAX_ENTRIES small records.
 */
const MAX_ENTRIES = 1000;

type Entry = { data: Readonly<Record<string, unknown>>; expiresAt: number };
type Unseal = (seal: string, options: { password: Record<string, string>; ttl: number }) => Promise<Record<string, unknown>>;

export class SealedSessionCache {
  private entries = new Map<string, Entry>();

  constructor(
    private passwords: Record<string, string>,
    private ttlS: number,
    private now: () => number = Date.now,
    private unseal: Unseal = unsealData,
  ) {}

  /** The data sealed in `seal`, or `{}` when it does not open (tampered, foreign key, expired). */
  async open<T extends object>(seal: string | undefined): Promise<Partial<T>> {
    if (!seal) return {};
    const hit = this.entries.get(seal);
    if (hit && hit.expiresAt > this.now()) return { ...hit.data } as Partial<T>;
    if (hit) this.entries.delete(seal);
    const data = await this.unseal(seal, { password: this.passwords, ttl: this.ttlS });
    const expiresAt = sealExpiry(seal);
    if (Object.keys(data).length > 0 && expiresAt !== null) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(seal, { data: Object.freeze({ ...data }), expiresAt });
    }
    return { ...data } as Partial<T>;
  }

  /** Drops an opened cookie (sign-out): its data, the client secret included, need not stay in memory. */
  forget(seal: string | undefined): void {
    if (seal) this.entries.delete(seal);
  }
}

/** Iron seals (`Fe26.2*id*salt*iv*data*expiration*hmacSalt*hmac`, then `~2`) carry their expiry in clear. */
function sealExpiry(seal: string): number | null {
  const expiration = Number(seal.split('~')[0]!.split('*')[5]);
  return Number.isFinite(expiration) && expiration > 0 ? expiration : null;
}
