import type { Page } from '@playwright/test';

/** The browser's cache of ranges as IndexedDB holds it (components/explorer/range/range-cache-browser.ts): metadata only, the batches are sealed. */
export function cachedEntries(page: Page) {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'tsb-range-cache')) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('tsb-range-cache');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      const all = db.transaction('meta').objectStore('meta').getAll();
      const metas = await new Promise<{ id: string; scope: string; keyId: string; count: number }[]>(
        (resolve) => (all.onsuccess = () => resolve(all.result)),
      );
      return metas.map(({ id, scope, keyId, count }) => ({ id, scope, keyId, count }));
    } finally {
      db.close();
    }
  });
}
