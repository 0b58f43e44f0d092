import * as z from '../zod';
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

const day = z.string().check(z.refine((v) => parseDay(v) !== null, 'must be a real calendar day as YYYY-MM-DD'));

/** A parameter the page can do without: anything it cannot read counts as absent. */
const loose = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);
/** A parameter with a default: absent or unreadable, the default. */
const withDefault = <T extends z.ZodMiniType<string>>(schema: T, value: z.output<T>) => {
  // Never undefined: T outputs a string (zod's own NoUndefined cannot see that through the generic).
  const fallback = value as z.core.util.NoUndefined<z.output<T>>;
  return z._default(z.catch(schema, fallback), fallback);
};
const text = (max: number) => z.string().check(z.maxLength(max));
const direction = (value: 'asc' | 'desc') => withDefault(z.enum(['asc', 'desc']), value);

/** Everything a person would share about the explorer lives in the URL; this is its shape. */
export const ExplorerStateSchema = z.object({
  from: z.optional(day),
  to: z.optional(day),
  tz: z.pipe(loose(z.string()), z.transform(zoneOfParam)),
  q: withDefault(text(200), ''),
  crop: loose(text(100)),
  warn: loose(z.literal('1')),
  below: loose(z.literal('1')),
  sort: withDefault(z.enum(SORTABLE), 'batch_creation_date'),
  dir: direction('desc'),
  /** Targets that differ from the organisation's saved ones (see formatTargetsParam); absent: the saved ones. */
  targets: loose(text(20_000)),
  /** The one germination target of links made before targets per crop: overrides the general germination target. */
  target: loose(z.coerce.number().check(z.minimum(0), z.maximum(100))),
  hide: withDefault(text(500), ''),
  /** The batch whose detail dialog is open (its batch_id), so the dialog has a link of its own. */
  batch: loose(text(200)),
  /** What every chart shows. */
  metric: withDefault(z.enum(METRICS), 'germination'),
  /** The over-time chart: a small panel per crop, or one chart with the `focus` crops in colour. */
  chart: withDefault(z.enum(['panels', 'focus']), 'panels'),
  /** The crops in colour in focus mode: crop keys, each percent-encoded, joined by `,`. */
  focus: loose(text(5_000)),
  compare: loose(z.enum(COMPARISONS)),
  group: loose(z.enum(GROUPINGS)),
  gsort: withDefault(z.enum(GROUP_SORTABLE), 'count'),
  gdir: direction('desc'),
  /** Drill-downs (see drill.ts): metric bins, the days of a time bucket, a scanner. */
  bins: loose(text(500)),
  days: loose(text(30)),
  scanner: loose(text(320)),
  /** The crop whose control chart is shown (absent: the crop filter's, else the one with most batches). */
  spc: loose(text(100)),
  /** The control charts' baseline period (`from..to` days); absent: the first batches of the range. */
  base: loose(text(30)),
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
