'use client';

import type { Batch } from '@/lib/contract';
import { LIMITS, RangeCache, type CachedRange, type SessionKey } from '@/lib/explorer/range-cache';
import { IdbStore } from '@/lib/explorer/range-cache-idb';
import { withOrg } from '@/lib/org-param';

/**
 * The page's one cache of ranges (lib/explorer/range-cache.ts) in IndexedDB, with this session's key fetched
 * once per page and kept in memory only (non-extractable). Every failure (no IndexedDB, a private window, a
 * session that has ended, an entry that cannot be opened) means "not cached": the range loads from the service.
 */
const store = typeof indexedDB === 'undefined' ? null : new IdbStore();
const cache = store ? new RangeCache(store) : null;
/** False where there is no IndexedDB (nor so any cache): a load then starts at once, not a task later. */
export const hasRangeCache = cache !== null;
/** Set on sign-out: nothing more is written by this page. */
let wiped = false;
let sessionKey: Promise<SessionKey | null> | null = null;

const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

async function fetchKey(): Promise<SessionKey | null> {
  const response = await fetch(withOrg('/api/session/cache-key'), {
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) return null;
  const { key, keyId, scope } = (await response.json()) as { key: string; keyId: string; scope: string };
  const cryptoKey = await crypto.subtle.importKey('raw', fromBase64url(key), 'AES-GCM', false, ['encrypt', 'decrypt']);
  return { key: cryptoKey, keyId, scope };
}

/** This session's key (asked for once; a refusal is remembered for the page: a new session is a new page). */
function currentKey(): Promise<SessionKey | null> {
  return (sessionKey ??= fetchKey().catch(() => {
    sessionKey = null;
    return null;
  }));
}

/** The batches kept for `range`, or null. */
export async function readCachedRange(range: string): Promise<CachedRange | null> {
  if (!cache || wiped) return null;
  try {
    const key = currentKey().finally(() => performance.mark('range-cache:key'));
    const hit = await cache.read(key, range);
    // Where a reopening's time goes (bench/reopen.ts reads these): the key, then the entry read and opened.
    performance.mark('range-cache:read');
    return hit;
  } catch {
    return null;
  }
}

/** Keeps `batches` for `range` in an idle moment (sealing 20,000 batches takes a while, never the page's first). */
export function writeCachedRange(range: string, batches: readonly Batch[], savedAt: number): void {
  if (!cache || wiped) return;
  const write = async () => {
    const key = await currentKey();
    if (key && !wiped) await cache.write(key, range, batches, savedAt);
  };
  const idle =
    typeof requestIdleCallback === 'function'
      ? (f: () => void) => requestIdleCallback(f, { timeout: 2000 })
      : (f: () => void) => setTimeout(f, 200);
  idle(() => void write().catch(() => undefined));
}

/** Forgets every range kept in this browser (sign-out). */
export async function wipeRangeCache(): Promise<void> {
  wiped = true;
  await store?.destroy().catch(() => undefined);
}

/** How many batches a range may have and still be kept (a larger one is not gathered for the cache at all). */
export const CACHE_MAX_BATCHES = LIMITS.batches;
