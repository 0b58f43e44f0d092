import { ExplorerStateSchema, queryString } from '../explorer/url-state';
import * as z from '../zod';

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
export const viewKeys = (): ReadonlySet<string> => new Set(Object.keys(ExplorerStateSchema.shape));

/** Why `query` cannot be a view's query string, or null. */
export function viewQueryProblem(query: string): string | null {
  const known = viewKeys();
  for (const key of new URLSearchParams(query).keys()) {
    if (!known.has(key)) return `the explorer has no parameter "${key.slice(0, 40)}"`;
  }
  return null;
}

/** The explorer's state in `query` apart from the zone it is read in: a query of `tz` alone is the bare page. */
export function holdsViewState(query: string): boolean {
  for (const key of new URLSearchParams(query).keys()) if (key !== 'tz') return true;
  return false;
}

/**
 * Where `/batches?<params>` opens instead when `viewQuery` is the organisation's default view: null when the
 * URL holds state of its own (nothing but the zone counts as none) or when the view would be the same URL.
 * The viewer's zone stays when the view names none. Never a loop: a target without state of its own is the
 * same URL the second time.
 */
export function defaultViewTarget(viewQuery: string, params: URLSearchParams): string | null {
  if (holdsViewState(params.toString())) return null;
  const target = new URLSearchParams(viewQuery);
  const zone = params.get('tz');
  if (!target.has('tz') && zone) target.set('tz', zone);
  const query = queryString(target);
  return query === queryString(params) ? null : `/batches${query ? `?${query}` : ''}`;
}

export const ViewNameSchema = z
  .string({ error: 'must be a text' })
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(MAX_VIEW_NAME, `must be at most ${MAX_VIEW_NAME} characters`));

/** What follows `?` on /batches (a leading `?` is dropped), its parameters only the explorer's own. */
export const ViewQuerySchema = z.string({ error: 'must be a text, the query string of /batches' }).check(
  z.maxLength(MAX_VIEW_QUERY, `must be at most ${MAX_VIEW_QUERY} characters`),
  z.overwrite((q) => (q.startsWith('?') ? q.slice(1) : q)),
  z.superRefine((q, ctx) => {
    const problem = viewQueryProblem(q);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

export const SavedViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  query: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedView = z.infer<typeof SavedViewSchema>;

/** What `GET /api/settings/views` answers: the organisation's views by name. */
export const SavedViewListSchema = z.object({ views: z.array(SavedViewSchema) });
export type SavedViewList = z.infer<typeof SavedViewListSchema>;

export const ViewCreateSchema = z.strictObject({ name: ViewNameSchema, query: ViewQuerySchema, isDefault: z.optional(z.boolean({ error: 'must be true or false' })) });
export type ViewCreate = z.infer<typeof ViewCreateSchema>;

/** A rename, a change of default, or both. */
export const ViewChangeSchema = z
  .strictObject({ name: z.optional(ViewNameSchema), isDefault: z.optional(z.boolean({ error: 'must be true or false' })) })
  .check(z.refine((c) => c.name !== undefined || c.isDefault !== undefined, 'must name a new name or isDefault'));
export type ViewChange = z.infer<typeof ViewChangeSchema>;
