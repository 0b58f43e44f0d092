import { EXPLORER_KEYS, OPENED, queryString } from '../explorer/url-state';
import { ORG_PARAM } from '../org-param';

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
 * and zone (`from=all&to=now&tz=…` is All time), so a link always opens what it says, default view or not. The
 * organisation the address names (`org=`) is no state of the view: `/batches?org=acme` is bare too, and opens
 * that organisation's default view.
 */
export const isBare = (params: URLSearchParams): boolean => withoutOrg(params).size === 0;

/** `params` without the organisation the page is for. */
function withoutOrg(params: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(params);
  rest.delete(ORG_PARAM);
  return rest;
}

/**
 * Where a bare `/batches` opens when `viewQuery` is the organisation's default view: the view's own query and
 * `opened=default`, for the page to say which view it opened (and then take it out of the address), still
 * naming the organisation the address named; null for any other URL. Never a loop: the target is not bare.
 */
export function defaultViewTarget(viewQuery: string, params: URLSearchParams): string | null {
  if (!isBare(params)) return null;
  const target = new URLSearchParams(viewQuery);
  target.set(OPENED, 'default');
  const org = params.get(ORG_PARAM);
  if (org) target.set(ORG_PARAM, org);
  return `/batches?${queryString(target)}`;
}

/**
 * Whether `params` is where defaultViewTarget sent a bare `/batches` for this default view: only then does the
 * page say it opened it (a link naming `opened` on its own, or a view changed since, says nothing).
 */
export function openedAsDefault(viewQuery: string, params: URLSearchParams): boolean {
  return (
    params.getAll(OPENED).join() === 'default' &&
    `/batches?${queryString(withoutOrg(params))}` === defaultViewTarget(viewQuery, new URLSearchParams())
  );
}

/** Who keeps a view: a person, or null when the organisation does (its owner was removed). */
export type ViewOwner = { email: string; name: string } | null;

/**
 * A saved view as `/api/settings/views` answers it (SavedViewSchema in schemas.ts). `shared`: seen by the whole
 * organisation (the default view always is); otherwise only its owner sees it. `mine`: the asker keeps it.
 */
export type SavedView = {
  id: string;
  name: string;
  query: string;
  isDefault: boolean;
  shared: boolean;
  owner: ViewOwner;
  mine: boolean;
  createdAt: string;
  updatedAt: string;
};
/** What `GET /api/settings/views` answers: the organisation's shared views and the asker's own, by name. */
export type SavedViewList = { views: SavedView[] };
export type ViewCreate = { name: string; query: string; isDefault?: boolean; shared?: boolean };
/** A rename, a change of default, sharing or not, or several. */
export type ViewChange = { name?: string; isDefault?: boolean; shared?: boolean };

const VIEW_TEXTS = ['id', 'name', 'query', 'createdAt', 'updatedAt'] as const;
const VIEW_FLAGS = ['isDefault', 'shared', 'mine'] as const;

function ownerOf(v: unknown): ViewOwner | undefined {
  if (v === null) return null;
  if (typeof v !== 'object' || v === undefined) return undefined;
  const { email, name } = v as Record<string, unknown>;
  return typeof email === 'string' && typeof name === 'string' ? { email, name } : undefined;
}

/** A saved view as our API sends it, read by the browser (SavedViewSchema is the server's), or null. */
export function readSavedView(v: unknown): SavedView | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (!VIEW_TEXTS.every((k) => typeof o[k] === 'string') || !VIEW_FLAGS.every((k) => typeof o[k] === 'boolean'))
    return null;
  const owner = ownerOf(o.owner);
  if (owner === undefined) return null;
  const { id, name, query, isDefault, shared, mine, createdAt, updatedAt } = o as SavedView;
  return { id, name, query, isDefault, shared, owner, mine, createdAt, updatedAt };
}
