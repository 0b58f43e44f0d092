import type { Batch } from '../contract';

/**
 * The browser's cache of the last ranges loaded, so that a reload or a new tab reopens them at once.
 *
 * - Encrypted at rest: AES-GCM under a key only a live session can fetch (GET /api/session/cache-key), held
 *   non-extractable in memory. Sign-out, revocation and expiry end the session; the next one has another key,
 *   so what was sealed before cannot be read and is dropped quietly.
 * - Scoped by organisation: an entry lives under the organisation's scope, and is sealed with the range and
 *   the scope as additional data (an entry moved to another name does not open).
 * - What the stream gave (the batches as received), as JSON, gzip-compressed before it is sealed.
 * - Bounded: at most MAX_ENTRIES entries and MAX_TOTAL_BYTES in all, least recently used go first; a range of
 *   more than MAX_BATCHES batches, or sealed larger than MAX_ENTRY_BYTES, is not kept.
 */
export const LIMITS = {
  entries: 8,
  totalBytes: 48 * 1024 * 1024,
  entryBytes: 16 * 1024 * 1024,
  batches: 50_000,
};
export type Limits = typeof LIMITS;

/** What is kept beside each sealed entry, in the clear: enough to choose what to evict without opening it. */
export type EntryMeta = {
  /** `${scope} ${range}` */
  id: string;
  scope: string;
  /** The key it was sealed under (see lib/server/batches/cache-key.ts): one of another key is dropped without trying. */
  keyId: string;
  savedAt: number;
  usedAt: number;
  bytes: number;
  count: number;
};
export type Sealed = { iv: Uint8Array; data: ArrayBuffer };

/** Where entries are kept: IndexedDB in the browser (range-cache-idb.ts), a Map in tests. */
export interface CacheStore {
  sealed(id: string): Promise<Sealed | undefined>;
  put(meta: EntryMeta, sealed: Sealed): Promise<void>;
  touch(id: string, usedAt: number): Promise<void>;
  remove(ids: string[]): Promise<void>;
  all(): Promise<EntryMeta[]>;
  clear(): Promise<void>;
}

/** A live session's key for this organisation. */
export type SessionKey = { key: CryptoKey; keyId: string; scope: string };

export type CachedRange = { batches: Batch[]; savedAt: number };

const encoder = new TextEncoder();

/** Items written as JSON per slice: about 350 kB of text, a few ms, so sealing 20,000 batches never holds the page. */
const SLICE = 500;
const breathe = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `value` as gzipped JSON. An array is written a slice of items at a time, letting the page run between slices
 * (one JSON.stringify of 20,000 batches was a long task of its own); the text is the same as JSON.stringify's
 * for an array of objects.
 */
async function packed(value: unknown): Promise<ArrayBuffer> {
  const gzip = new CompressionStream('gzip');
  const result = new Response(gzip.readable).arrayBuffer();
  const writer = gzip.writable.getWriter();
  if (Array.isArray(value)) {
    await writer.write(encoder.encode('['));
    for (let i = 0; i < value.length; i += SLICE) {
      if (i > 0) await breathe();
      await writer.write(
        encoder.encode(
          (i > 0 ? ',' : '') +
            value
              .slice(i, i + SLICE)
              .map((v) => JSON.stringify(v))
              .join(','),
        ),
      );
    }
    await writer.write(encoder.encode(']'));
  } else {
    await writer.write(encoder.encode(JSON.stringify(value)));
  }
  await writer.close();
  return result;
}

/** JSON → gzip → AES-GCM (a fresh 96-bit IV each time, `aad` bound to the ciphertext). */
export async function seal(key: CryptoKey, aad: string, value: unknown): Promise<Sealed> {
  const data = await packed(value);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  return {
    iv,
    data: await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(aad) }, key, data),
  };
}

/** The value `seal` sealed; throws when the key, the IV, the additional data or a single byte differs. */
export async function unseal<T>(key: CryptoKey, aad: string, sealed: Sealed): Promise<T> {
  const iv = new Uint8Array(sealed.iv);
  const packed = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(aad) },
    key,
    sealed.data,
  );
  return new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'))).json() as Promise<T>;
}

/** Which entries to evict, least recently used first, so that at most `limits` remain (`keep` stays if it can). */
export function evictions(
  metas: readonly EntryMeta[],
  limits: Pick<Limits, 'entries' | 'totalBytes'>,
  keep?: string,
): string[] {
  const order = [...metas].sort((a, b) => a.usedAt - b.usedAt || (a.id < b.id ? -1 : 1));
  let count = order.length;
  let bytes = order.reduce((sum, m) => sum + m.bytes, 0);
  const out: string[] = [];
  for (const m of order) {
    if (count <= limits.entries && bytes <= limits.totalBytes) break;
    if (m.id === keep) continue;
    out.push(m.id);
    count--;
    bytes -= m.bytes;
  }
  return out;
}

export class RangeCache {
  constructor(
    private store: CacheStore,
    private limits: Limits = LIMITS,
    private now: () => number = Date.now,
  ) {}

  /**
   * The batches kept for `range` of this session's organisation, or null (none, or sealed under another key:
   * dropped). The session's key may still be on its way: the look-up in the store runs meanwhile.
   */
  async read(sessionKey: SessionKey | Promise<SessionKey | null>, range: string): Promise<CachedRange | null> {
    const [session, metas] = await Promise.all([sessionKey, this.store.all()]);
    if (!session) return null;
    const id = `${session.scope} ${range}`;
    const meta = metas.find((m) => m.id === id);
    if (!meta) return null;
    const sealed = meta.keyId === session.keyId ? await this.store.sealed(id) : undefined;
    let batches: Batch[] | null = null;
    if (sealed) batches = await unseal<Batch[]>(session.key, id, sealed).catch(() => null);
    if (!batches) {
      await this.store.remove([id]);
      return null;
    }
    // Its use counts for the LRU order, written after the batches are handed out (nothing waits on it).
    void this.store.touch(id, this.now()).catch(() => undefined);
    return { batches, savedAt: meta.savedAt };
  }

  /** Keeps `batches` for `range` (unless too many or too large), then evicts to the limits. True when kept. */
  async write(session: SessionKey, range: string, batches: readonly Batch[], savedAt: number): Promise<boolean> {
    if (batches.length > this.limits.batches) return false;
    const id = `${session.scope} ${range}`;
    const sealed = await seal(session.key, id, batches);
    const bytes = sealed.data.byteLength;
    if (bytes > this.limits.entryBytes) {
      await this.store.remove([id]);
      return false;
    }
    await this.store.put(
      { id, scope: session.scope, keyId: session.keyId, savedAt, usedAt: this.now(), bytes, count: batches.length },
      sealed,
    );
    const metas = await this.store.all();
    // Entries of this organisation sealed under an older key can never be read again.
    const dead = metas.filter((m) => m.scope === session.scope && m.keyId !== session.keyId).map((m) => m.id);
    const live = metas.filter((m) => !dead.includes(m.id));
    const out = [...dead, ...evictions(live, this.limits, id)];
    if (out.length) await this.store.remove(out);
    return !out.includes(id);
  }

  clear(): Promise<void> {
    return this.store.clear();
  }
}

/** A store in memory, for tests (and wherever IndexedDB is missing, which then keeps nothing across reloads). */
export class MemoryStore implements CacheStore {
  readonly metas = new Map<string, EntryMeta>();
  readonly blobs = new Map<string, Sealed>();
  async sealed(id: string) {
    return this.blobs.get(id);
  }
  async put(meta: EntryMeta, sealed: Sealed) {
    this.metas.set(meta.id, meta);
    this.blobs.set(meta.id, sealed);
  }
  async touch(id: string, usedAt: number) {
    const m = this.metas.get(id);
    if (m) this.metas.set(id, { ...m, usedAt });
  }
  async remove(ids: string[]) {
    for (const id of ids) {
      this.metas.delete(id);
      this.blobs.delete(id);
    }
  }
  async all() {
    return [...this.metas.values()];
  }
  async clear() {
    this.metas.clear();
    this.blobs.clear();
  }
}
