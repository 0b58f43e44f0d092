import { EXPLORER_KEYS, OPENED, queryString } from '../explorer/url-state';

/**
 * Saved views: a name for an explorer view (everything in its URL), kept for the organisation, visible to
 * everyone signed in to it. One may be the default that a bare `/batches` (no query at all) opens with.
 * Imported as `lib/contract/views`, not through the contract's index: it reads the explorer's URL schema,
 * whose date rules import that index (a cycle).
 */
export const MAX_VIEW_NAME = 80;
/** A query string the size of any view a person can build, far below what a URL can carry. */
export const MAX_VIEW_QUERY = 8000;
/** Views one organisation can keep: a list people still read, not an archive. */
export const MAX_VIEWS = 100;

/**
 * The parameters the explorer reads, from its schema at run time: the explorer gains parameters (a new chart,
 * a grouping) and a view saved with them must be accepted without this file changing.
 */
export const viewKeys = (): ReadonlySet<string> => new Set(EXPLORER_KEYS);

/** Why `query` cannot be a view's query string, or null. */
export function viewQueryProblem(query: string): string | null {
  const known = viewKeys();
  for (const key of new URLSearchParams(query).keys()) {
    if (!known.has(key)) return `the explorer has no parameter "${key.slice(0, 40)}"`;
  }
  return null;
}

/**
 * Only `/batches` with no query at all opens the default view: every link the explorer writes names its range
 * and zone (`from=all&to=now&tz=…` is All time), so a link always opens what it says, default view or not.
 */
export const isBare = (params: URLSearchParams): boolean => params.size === 0;

/**
 * Where a bare `/batches` opens when `viewQuery` is the organisation's default view: the view's own query and
 * `opened=default`, for the page to say which view it opened (and then take it out of the address); null for any
 * other URL. Never a loop: the target is not bare.
 */
export function defaultViewTarget(viewQuery: string, params: URLSearchParams): string | null {
  if (!isBare(params)) return null;
  const target = new URLSearchParams(viewQuery);
  target.set(OPENED, 'default');
  return `/batches?${queryString(target)}`;
}

/**
 * Whether `params` is where defaultViewTarget sent a bare `/batches` for this default view: only then does the
 * page say it opened it (a link naming `opened` on its own, or a view changed since, says nothing).
 */
export function openedAsDefault(viewQuery: string, params: URLSearchParams): boolean {
  return params.getAll(OPENED).join() === 'default' && `/batches?${queryString(params)}` === defaultViewTarget(viewQuery, new URLSearchParams());
}

/** A saved view as `/api/settings/views` answers it (SavedViewSchema in schemas.ts). */
export type SavedView = { id: string; name: string; query: string; isDefault: boolean; createdAt: string; updatedAt: string };
/** What `GET /api/settings/views` answers: the organisation's views by name. */
export type SavedViewList = { views: SavedView[] };
export type ViewCreate = { name: string; query: string; isDefault?: boolean };
/** A rename, a change of default, or both. */
export type ViewChange = { name?: string; isDefault?: boolean };

const VIEW_TEXTS = ['id', 'name', 'query', 'createdAt', 'updatedAt'] as const;

/** A saved view as our API sends it, read by the browser (SavedViewSchema is the server's), or null. */
export function readSavedView(v: unknown): SavedView | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (!VIEW_TEXTS.every((k) => typeof o[k] === 'string') || typeof o.isDefault !== 'boolean') return null;
  const { id, name, query, isDefault, createdAt, updatedAt } = o as SavedView;
  return { id, name, query, isDefault, createdAt, updatedAt };
}
