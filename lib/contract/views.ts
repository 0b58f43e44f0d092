import { EXPLORER_KEYS, queryString } from '../explorer/url-state';
import { ORG_PARAM } from '../org-param';

/**
 * Saved views: a name for an explorer view (everything in its URL), kept for the organisation, visible to
 * everyone signed in to it. One may be the default that `/batches` opens with when its URL holds no state.
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
 * The explorer's state in `query` apart from the zone it is read in and the organisation it is for: a query of
 * `tz` and `org` alone is the bare page.
 */
export function holdsViewState(query: string): boolean {
  for (const key of new URLSearchParams(query).keys()) if (key !== 'tz' && key !== ORG_PARAM) return true;
  return false;
}

/**
 * Where `/batches?<params>` opens instead when `viewQuery` is the organisation's default view: null when the
 * URL holds state of its own (nothing but the zone counts as none) or when the view would be the same URL.
 * The viewer's zone stays when the view names none, and the organisation the URL names stays too. Never a loop: a target without state of its own is the
 * same URL the second time.
 */
export function defaultViewTarget(viewQuery: string, params: URLSearchParams): string | null {
  if (holdsViewState(params.toString())) return null;
  const target = new URLSearchParams(viewQuery);
  const zone = params.get('tz');
  if (!target.has('tz') && zone) target.set('tz', zone);
  const org = params.get(ORG_PARAM);
  if (org) target.set(ORG_PARAM, org);
  const query = queryString(target);
  return query === queryString(params) ? null : `/batches${query ? `?${query}` : ''}`;
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
  if (!VIEW_TEXTS.every((k) => typeof o[k] === 'string') || !VIEW_FLAGS.every((k) => typeof o[k] === 'boolean')) return null;
  const owner = ownerOf(o.owner);
  if (owner === undefined) return null;
  const { id, name, query, isDefault, shared, mine, createdAt, updatedAt } = o as SavedView;
  return { id, name, query, isDefault, shared, owner, mine, createdAt, updatedAt };
}
