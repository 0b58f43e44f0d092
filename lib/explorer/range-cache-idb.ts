import type { CacheStore, EntryMeta, Sealed } from './range-cache';

export const CACHE_DB = 'tsb-range-cache';
const META = 'meta';
const SEALED = 'sealed';

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
const committed = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });

/** The cache's entries in IndexedDB: their metadata in one store, the sealed bytes (read only on a hit) in another. */
export class IdbStore implements CacheStore {
  private db: Promise<IDBDatabase> | null = null;
  /** Set by destroy: a write still under way (sealing a range takes a while) must not create the database again. */
  private destroyed = false;

  private open(): Promise<IDBDatabase> {
    if (this.destroyed) return Promise.reject(new Error('the range cache was wiped'));
    return (this.db ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(CACHE_DB, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(META, { keyPath: 'id' });
        request.result.createObjectStore(SEALED);
      };
      request.onsuccess = () => {
        const db = request.result;
        // Another tab deletes the database (sign-out): let it.
        db.onversionchange = () => {
          db.close();
          this.db = null;
        };
        resolve(db);
      };
      request.onerror = () => {
        this.db = null;
        reject(request.error);
      };
    }));
  }

  private async tx(mode: IDBTransactionMode) {
    return (await this.open()).transaction([META, SEALED], mode);
  }

  async sealed(id: string) {
    return done<Sealed | undefined>((await this.tx('readonly')).objectStore(SEALED).get(id));
  }
  async put(meta: EntryMeta, sealed: Sealed) {
    const tx = await this.tx('readwrite');
    tx.objectStore(META).put(meta);
    tx.objectStore(SEALED).put(sealed, meta.id);
    await committed(tx);
  }
  async touch(id: string, usedAt: number) {
    const tx = await this.tx('readwrite');
    const meta = await done<EntryMeta | undefined>(tx.objectStore(META).get(id));
    if (meta) tx.objectStore(META).put({ ...meta, usedAt });
    await committed(tx);
  }
  async remove(ids: string[]) {
    const tx = await this.tx('readwrite');
    for (const id of ids) {
      tx.objectStore(META).delete(id);
      tx.objectStore(SEALED).delete(id);
    }
    await committed(tx);
  }
  async all() {
    return done<EntryMeta[]>((await this.tx('readonly')).objectStore(META).getAll());
  }
  async clear() {
    const tx = await this.tx('readwrite');
    tx.objectStore(META).clear();
    tx.objectStore(SEALED).clear();
    await committed(tx);
  }

  /** Deletes the whole database (sign-out): closes this page's connection first, so nothing blocks it. */
  async destroy(): Promise<void> {
    this.destroyed = true;
    const db = this.db;
    this.db = null;
    if (db) (await db.catch(() => null))?.close();
    await new Promise<void>((resolve) => {
      const request = indexedDB.deleteDatabase(CACHE_DB);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    });
  }
}
