import { z } from '../zod';
import { parseDay } from './date-range';
import { METRICS } from './metrics';
import { zoneOfParam } from './zones';

export const SORTABLE = [
  'batch_creation_date', 'batch_name', 'crop_type', 'avg_germination_rate', 'avg_usable_seedling_rate',
  'total_cells_per_tray', 'avg_coefficient_of_variation', 'avg_median_seedling_size_mm2', 'number_of_images', 'warnings',
  'target',
] as const;
export type SortField = (typeof SORTABLE)[number];

/** How the Grouped summary groups the batches (absent: no grouped summary). */
export const GROUPINGS = ['crop', 'week', 'month', 'scanner', 'crop-week'] as const;
export type Grouping = (typeof GROUPINGS)[number];
/** What the summary and the over-time chart compare the range with (absent: nothing). */
export const COMPARISONS = ['previous', 'last-year'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const GROUP_SORTABLE = ['key', 'count', 'germination', 'usable', 'cv', 'below', 'belowShare', 'warningShare'] as const;
export type GroupSortField = (typeof GROUP_SORTABLE)[number];

const day = z.string().refine((v) => parseDay(v) !== null, 'must be a real calendar day as YYYY-MM-DD');

/** Everything a person would share about the explorer lives in the URL; this is its shape. */
export const ExplorerStateSchema = z.object({
  from: day.optional(),
  to: day.optional(),
  tz: z.string().optional().catch(undefined).transform(zoneOfParam),
  q: z.string().max(200).catch('').default(''),
  crop: z.string().max(100).optional().catch(undefined),
  warn: z.literal('1').optional().catch(undefined),
  below: z.literal('1').optional().catch(undefined),
  sort: z.enum(SORTABLE).catch('batch_creation_date').default('batch_creation_date'),
  dir: z.enum(['asc', 'desc']).catch('desc').default('desc'),
  /** Targets that differ from the organisation's saved ones (see formatTargetsParam); absent: the saved ones. */
  targets: z.string().max(20_000).optional().catch(undefined),
  /** The one germination target of links made before targets per crop: overrides the general germination target. */
  target: z.coerce.number().min(0).max(100).optional().catch(undefined),
  hide: z.string().max(500).catch('').default(''),
  /** The batch whose detail dialog is open (its batch_id), so the dialog has a link of its own. */
  batch: z.string().max(200).optional().catch(undefined),
  /** What every chart shows. */
  metric: z.enum(METRICS).catch('germination').default('germination'),
  /** The over-time chart: a small panel per crop, or one chart with the `focus` crops in colour. */
  chart: z.enum(['panels', 'focus']).catch('panels').default('panels'),
  /** The crops in colour in focus mode: crop keys, each percent-encoded, joined by `,`. */
  focus: z.string().max(5_000).optional().catch(undefined),
  compare: z.enum(COMPARISONS).optional().catch(undefined),
  group: z.enum(GROUPINGS).optional().catch(undefined),
  gsort: z.enum(GROUP_SORTABLE).catch('count').default('count'),
  gdir: z.enum(['asc', 'desc']).catch('desc').default('desc'),
  /** Drill-downs (see drill.ts): metric bins, the days of a time bucket, a scanner. */
  bins: z.string().max(500).optional().catch(undefined),
  days: z.string().max(30).optional().catch(undefined),
  scanner: z.string().max(320).optional().catch(undefined),
  /** The crop whose control chart is shown (absent: the crop filter's, else the one with most batches). */
  spc: z.string().max(100).optional().catch(undefined),
  /** The control charts' baseline period (`from..to` days); absent: the first batches of the range. */
  base: z.string().max(30).optional().catch(undefined),
});
export type ExplorerState = z.infer<typeof ExplorerStateSchema>;

/**
 * What is wrong with the URL's days, for the page to say in the reader's language: From after To, or a
 * day that is not a real calendar day (`value` as the URL has it).
 */
export type DateError = { kind: 'order'; from: string; to: string } | { kind: 'invalid'; field: 'from' | 'to'; value: string };

export type ParsedState = { state: ExplorerState; dateError: DateError | null };

/** Reads the URL; a broken date is reported (not silently dropped) so the page can say so. */
export function readState(params: URLSearchParams): ParsedState {
  const raw = Object.fromEntries(params.entries());
  const parsed = ExplorerStateSchema.safeParse(raw);
  if (parsed.success) {
    const { from, to } = parsed.data;
    if (from && to && from > to) return { state: { ...parsed.data }, dateError: { kind: 'order', from, to } };
    return { state: parsed.data, dateError: null };
  }
  // Only from/to can fail (every other field falls back); drop the broken ones and say which.
  const field = parsed.error.issues[0]!.path[0] === 'from' ? 'from' : 'to';
  const broken = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  const rest = Object.fromEntries(Object.entries(raw).filter(([k]) => !broken.has(k)));
  const fallback = ExplorerStateSchema.safeParse(rest);
  return {
    state: fallback.success ? fallback.data : ExplorerStateSchema.parse({}),
    dateError: { kind: 'invalid', field, value: raw[field] ?? '' },
  };
}

const DEFAULTS = ExplorerStateSchema.parse({});

/**
 * Only what differs from the defaults goes into the URL, in a stable order; the zone always does, so that a
 * link shows the same days to whoever opens it, in whatever zone.
 */
export function writeState(state: ExplorerState): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(ExplorerStateSchema.shape) as (keyof ExplorerState)[]) {
    const value = state[key];
    if (value === undefined || value === '' || (key !== 'tz' && value === DEFAULTS[key])) continue;
    params.set(key, String(value));
  }
  return queryString(params);
}

/** A query string that leaves `/` as it is (allowed in a query): `tz=Europe/Amsterdam` reads as it says. */
export function queryString(params: URLSearchParams): string {
  return params.toString().replaceAll('%2F', '/');
}
