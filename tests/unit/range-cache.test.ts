import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Batch } from '@/lib/contract';
import { exportName, incompleteNote } from '@/lib/explorer/export-csv';
import {
  evictions,
  MemoryStore,
  RangeCache,
  seal,
  unseal,
  type EntryMeta,
  type SessionKey,
} from '@/lib/explorer/range-cache';
import { mergeRefreshed, rowsOf } from '@/lib/explorer/refresh';
import { cacheKeyFor } from '@/lib/server/batches/cache-key';
import { generateBatches } from '@/sandbox/data/generate';

const batches = generateBatches({
  seed: 'range-cache',
  count: 40,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
});
const ids = (rows: readonly { batch: Batch }[]) => rows.map((r) => r.batch.batch_id);
const SECRET = 'a session secret of at least thirty-two characters';

/** A session's key as the browser makes it from GET /api/session/cache-key. */
async function keyOf(sid: string, clientId = 'demo-client'): Promise<SessionKey> {
  const { key, keyId, scope } = cacheKeyFor({ sid, organisationId: clientId }, SECRET);
  const raw = Buffer.from(key, 'base64url');
  return { key: await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']), keyId, scope };
}

/** A clock the test moves by hand: LRU order by use, never the machine's time. */
function ticking() {
  let t = 1_000;
  return () => ++t;
}

describe('the cache key (lib/server/batches/cache-key.ts)', () => {
  it('is the same for one session, another for another session or organisation; the scope names the organisation only', () => {
    const a = cacheKeyFor({ sid: 's1', organisationId: 'demo-client' }, SECRET);
    expect(cacheKeyFor({ sid: 's1', organisationId: 'demo-client' }, SECRET)).toEqual(a);
    const b = cacheKeyFor({ sid: 's2', organisationId: 'demo-client' }, SECRET);
    expect(b.key).not.toBe(a.key);
    expect(b.keyId).not.toBe(a.keyId);
    expect(b.scope).toBe(a.scope);
    const other = cacheKeyFor({ sid: 's1', organisationId: 'other-client' }, SECRET);
    expect(other.key).not.toBe(a.key);
    expect(other.scope).not.toBe(a.scope);
    expect(Buffer.from(a.key, 'base64url')).toHaveLength(32);
    expect(JSON.stringify(a)).not.toContain('demo-client');
  });
});

describe('sealing', () => {
  it('round-trips the batches, compressed and encrypted (no batch name readable in the sealed bytes)', async () => {
    const key = await keyOf('s1');
    const sealed = await seal(key.key, 'scope range', batches);
    expect(await unseal(key.key, 'scope range', sealed)).toEqual(batches);
    const text = Buffer.from(sealed.data).toString('latin1');
    expect(text).not.toContain(batches[0]!.batch_name);
    expect(sealed.data.byteLength).toBeLessThan(JSON.stringify(batches).length / 2);
  });

  it('does not open under another key, for another name, or with one byte changed', async () => {
    const key = await keyOf('s1');
    const sealed = await seal(key.key, 'scope range', batches);
    await expect(unseal((await keyOf('s2')).key, 'scope range', sealed)).rejects.toThrow();
    await expect(unseal(key.key, 'other-scope range', sealed)).rejects.toThrow();
    const data = new Uint8Array(sealed.data.slice(0));
    data[5]! ^= 1;
    await expect(unseal(key.key, 'scope range', { iv: sealed.iv, data: data.buffer })).rejects.toThrow();
  });
});

describe('RangeCache', () => {
  it('gives back what was written, for the same session and organisation only', async () => {
    const store = new MemoryStore();
    const cache = new RangeCache(store, undefined, ticking());
    const mine = await keyOf('s1');
    expect(await cache.write(mine, 'r', batches, 42)).toBe(true);
    expect(await cache.read(mine, 'r')).toEqual({ batches, savedAt: 42 });
    // Another organisation looks under its own scope: nothing there.
    expect(await cache.read(await keyOf('s9', 'other-client'), 'r')).toBeNull();
    expect(store.metas.size).toBe(1);
  });

  it("drops quietly what a new session's key cannot open (sign-out, revocation, expiry: a new session, a new key)", async () => {
    const store = new MemoryStore();
    const cache = new RangeCache(store, undefined, ticking());
    await cache.write(await keyOf('old'), 'r', batches, 1);
    expect(await cache.read(await keyOf('new'), 'r')).toBeNull();
    expect(store.metas.size).toBe(0);
    // Even were the key id the same, an entry that does not open is dropped.
    const same = await keyOf('s1');
    await cache.write(same, 'r', batches, 1);
    store.blobs.set([...store.blobs.keys()][0]!, { iv: new Uint8Array(12), data: new ArrayBuffer(40) });
    expect(await cache.read(same, 'r')).toBeNull();
    expect(store.metas.size).toBe(0);
  });

  it('writing for a new session drops the organisation’s entries under older keys', async () => {
    const store = new MemoryStore();
    const cache = new RangeCache(store, undefined, ticking());
    await cache.write(await keyOf('old'), 'a', batches, 1);
    await cache.write(await keyOf('o', 'other-client'), 'a', batches, 1);
    await cache.write(await keyOf('new'), 'b', batches, 2);
    expect([...store.metas.values()].map((m) => m.id).sort()).toEqual(
      [`${(await keyOf('new')).scope} b`, `${(await keyOf('o', 'other-client')).scope} a`].sort(),
    );
  });

  it('keeps at most N entries, the least recently used going first (a read counts as a use)', async () => {
    const store = new MemoryStore();
    const cache = new RangeCache(store, { entries: 3, totalBytes: 1e9, entryBytes: 1e9, batches: 1000 }, ticking());
    const key = await keyOf('s1');
    for (const r of ['a', 'b', 'c']) await cache.write(key, r, batches.slice(0, 5), 1);
    await cache.read(key, 'a');
    await cache.write(key, 'd', batches.slice(0, 5), 1);
    expect([...store.metas.keys()].map((id) => id.split(' ')[1]).sort()).toEqual(['a', 'c', 'd']);
  });

  it('keeps at most so many bytes, and never a range too large or of too many batches', async () => {
    const store = new MemoryStore();
    const key = await keyOf('s1');
    const probe = new RangeCache(new MemoryStore(), undefined, ticking());
    await probe.write(key, 'x', batches, 1);
    const one = [...(probe as unknown as { store: MemoryStore }).store.metas.values()][0]!.bytes;
    const cache = new RangeCache(
      store,
      { entries: 100, totalBytes: one * 2.5, entryBytes: one * 1.5, batches: 40 },
      ticking(),
    );
    for (const r of ['a', 'b', 'c']) expect(await cache.write(key, r, batches, 1)).toBe(true);
    expect([...store.metas.keys()].map((id) => id.split(' ')[1]).sort()).toEqual(['b', 'c']);
    expect(await cache.write(key, 'many', [...batches, ...batches.slice(0, 1)], 1)).toBe(false);
    // Comments that do not compress (digests of the ids): the sealed range outgrows one entry's limit.
    const noise = (id: string) =>
      Array.from({ length: 8 }, (_, i) => createHash('sha256').update(`${id}/${i}`).digest('base64')).join('');
    const big = batches.map((b) => ({ ...b, comment: noise(b.batch_id) }));
    expect(await cache.write(key, 'big', big, 1)).toBe(false);
    expect(store.metas.has(`${key.scope} many`) || store.metas.has(`${key.scope} big`)).toBe(false);
  });

  it('evictions: least recently used first, never past the limits, the new entry kept if it fits alone', () => {
    const m = (id: string, usedAt: number, bytes: number): EntryMeta => ({
      id,
      scope: 's',
      keyId: 'k',
      savedAt: 0,
      usedAt,
      bytes,
      count: 1,
    });
    const metas = [m('new', 9, 50), m('old', 1, 10), m('mid', 5, 30)];
    expect(evictions(metas, { entries: 2, totalBytes: 1000 }, 'new')).toEqual(['old']);
    expect(evictions(metas, { entries: 5, totalBytes: 60 }, 'new')).toEqual(['old', 'mid']);
    expect(evictions(metas, { entries: 5, totalBytes: 1000 })).toEqual([]);
  });
});

describe('mergeRefreshed: a reopened copy checked against the service', () => {
  const copy = rowsOf(batches.slice(0, 30));

  it('rows from the cache are the rows the stream makes: creation order, each once', () => {
    expect(ids(rowsOf([...batches.slice(0, 30)].reverse()))).toEqual(ids(copy));
  });

  it('while the check runs: new and changed batches from it, the rest from the copy, each once, in creation order; the count never drops', () => {
    const changed = { ...batches[3]!, avg_germination_rate: '12.5' };
    const fresh = rowsOf([changed, ...batches.slice(30, 33)]);
    const shown = mergeRefreshed(copy, fresh);
    expect(ids(shown)).toEqual(ids(rowsOf(batches.slice(0, 33))));
    expect(shown.find((r) => r.batch.batch_id === changed.batch_id)!.batch.avg_germination_rate).toBe('12.5');
    let last = copy.length;
    for (let n = 0; n <= 33; n += 3) {
      const count = mergeRefreshed(copy, rowsOf(batches.slice(0, n))).length;
      expect(count).toBeGreaterThanOrEqual(last);
      last = count;
    }
  });

  it('a changed creation date moves the batch, once', () => {
    const moved = { ...batches[0]!, batch_creation_date: batches[29]!.batch_creation_date.replace(/\d\dZ$/, '59Z') };
    const shown = mergeRefreshed(copy, rowsOf([moved]));
    expect(shown).toHaveLength(30);
    expect(new Set(ids(shown)).size).toBe(30);
  });
});

describe('exports of a copy say "as of"', () => {
  it('in their first line and their name', () => {
    const view = { complete: true, loaded: 3, missing: [], zone: 'UTC', asOf: Date.UTC(2026, 10, 23, 14, 2) };
    expect(incompleteNote(view)).toBe(
      'AS OF 2026-11-23 14:02 UTC: 3 batches as loaded then, not yet refreshed; they may have changed since',
    );
    expect(exportName('batches.csv', view)).toBe('batches-AS-OF-1402.csv');
    expect(incompleteNote({ ...view, asOf: undefined })).toBeNull();
  });
});
