import { TARGET_METRICS } from '../contract/targets';
import { RULES } from './control/rules';
import { METRICS } from './metrics';
import { ALL, isRangeEnd, isRangeStart, NOW } from './range/rolling';
import { zoneOfParam } from './zones';

export const SORTABLE = [
  'batch_creation_date',
  'batch_name',
  'crop_type',
  'avg_germination_rate',
  'avg_usable_seedling_rate',
  'total_cells_per_tray',
  'avg_coefficient_of_variation',
  'avg_median_seedling_size_mm2',
  'number_of_images',
  'warnings',
  'target',
  'below',
] as const;
export type SortField = (typeof SORTABLE)[number];

/** How the Grouped summary groups the batches (absent: no grouped summary). */
export const GROUPINGS = ['crop', 'week', 'month', 'scanner', 'crop-week'] as const;
export type Grouping = (typeof GROUPINGS)[number];
/** What the summary and the over-time chart compare the range with (absent: nothing). */
export const COMPARISONS = ['previous', 'last-year'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const GROUP_SORTABLE = [
  'key',
  'count',
  'germination',
  'usable',
  'cv',
  'below',
  'belowShare',
  'warningShare',
] as const;
export type GroupSortField = (typeof GROUP_SORTABLE)[number];

/**
 * How the explorer reads each parameter of its URL. Anything a parameter cannot be read as counts as absent (or
 * its default): a link mangled in transit still opens, on what it can say. Only the days are reported when
 * broken (readState), so the page can say which day it could not read.
 *
 * Written by hand rather than with zod: this is the only schema the first screen needs, and zod was 22 kB of its
 * gzipped JavaScript (the server keeps zod for everything it is sent).
 */
type Reader<T> = (raw: string | undefined) => T;

const text =
  (max: number): Reader<string | undefined> =>
  (raw) =>
    raw !== undefined && raw.length <= max ? raw : undefined;
const withDefault =
  <T extends string>(read: Reader<T | undefined>, fallback: T): Reader<T> =>
  (raw) =>
    read(raw) ?? fallback;
const oneOf =
  <T extends string>(values: readonly T[]): Reader<T | undefined> =>
  (raw) =>
    (values as readonly string[]).includes(raw!) ? (raw as T) : undefined;
const direction = withDefault(oneOf(['asc', 'desc'] as const), 'desc');
/** A number as `Number()` reads it (an empty text is 0), from 0 to 100. */
const percent: Reader<number | undefined> = (raw) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return n >= 0 && n <= 100 ? n : undefined;
};
/**
 * An end of the range (lib/explorer/range/rolling.ts): a real calendar day as YYYY-MM-DD or a rolling end such as
 * `now-7d`; absent, All time's (`all`, `now`). null when present but not one (reported, not dropped).
 */
const end =
  (valid: (raw: string) => boolean, absent: string): Reader<string | null> =>
  (raw) =>
    raw === undefined ? absent : valid(raw) ? raw : null;

const READERS = {
  from: end(isRangeStart, ALL),
  to: end(isRangeEnd, NOW),
  tz: (raw: string | undefined) => zoneOfParam(raw),
  q: withDefault(text(200), ''),
  crop: text(100),
  warn: oneOf(['1'] as const),
  /** Batches that miss their targets: `1` any of them (as links always said), or one kind. */
  below: oneOf(['1', ...TARGET_METRICS] as const),
  sort: withDefault(oneOf(SORTABLE), 'batch_creation_date'),
  dir: direction,
  /** Targets that differ from the organisation's saved ones (see formatTargetsParam); absent: the saved ones. */
  targets: text(20_000),
  /** The one germination target of links made before targets per crop: overrides the general germination target. */
  target: percent,
  hide: withDefault(text(500), ''),
  /** The batch whose detail dialog is open (its batch_id), so the dialog has a link of its own. */
  batch: text(200),
  /** What every chart shows. */
  metric: withDefault(oneOf(METRICS), 'germination'),
  /** The over-time chart: a small panel per crop, or one chart with the `focus` crops in colour. */
  chart: withDefault(oneOf(['panels', 'focus'] as const), 'panels'),
  /** The crops in colour in focus mode: crop keys, each percent-encoded, joined by `,`. */
  focus: text(5_000),
  compare: oneOf(COMPARISONS),
  group: oneOf(GROUPINGS),
  gsort: withDefault(oneOf(GROUP_SORTABLE), 'count'),
  gdir: direction,
  /** Drill-downs (see drill.ts): metric bins, the days of a time bucket, a scanner. */
  bins: text(500),
  days: text(30),
  scanner: text(320),
  /** The crop whose control chart is shown (absent: the crop filter's, else the one with most batches). */
  spc: text(100),
  /** The control charts' baseline period (`from..to` days); absent: the first batches of the range. */
  base: text(30),
  /** The control charts' rules: beyond the limits only (absent), or also runs on one side of the centre. */
  rules: withDefault(oneOf(RULES), 'limits'),
};

type Read<K extends keyof typeof READERS> = Exclude<ReturnType<(typeof READERS)[K]>, null>;
/** Everything a person would share about the explorer lives in the URL; this is its shape. */
export type ExplorerState = { [K in keyof typeof READERS as undefined extends Read<K> ? K : never]?: Read<K> } & {
  [K in keyof typeof READERS as undefined extends Read<K> ? never : K]: Read<K>;
};

/** The parameters the explorer reads, in the order its URLs write them. */
export const EXPLORER_KEYS = Object.keys(READERS) as (keyof ExplorerState)[];

/**
 * What is wrong with the URL's days, for the page to say in the reader's language: From after To (the days they
 * stand for today; see resolveRange), or an end that is neither a real calendar day nor a rolling end (`value`
 * as the URL has it).
 */
export type DateError =
  { kind: 'order'; from: string; to: string } | { kind: 'invalid'; field: 'from' | 'to'; value: string };

export type ParsedState = { state: ExplorerState; dateError: DateError | null };

/**
 * Reads the URL; a broken end of the range is reported (not silently dropped) so the page can say so, and read
 * as All time's meanwhile. Whether From is after To depends on today for a rolling end: resolveRange says.
 */
export function readState(params: URLSearchParams): ParsedState {
  const state: Record<string, unknown> = {};
  let broken: 'from' | 'to' | null = null;
  for (const key of EXPLORER_KEYS) {
    // The last value of a repeated parameter, as the page has always read it.
    const raw = params.getAll(key).at(-1);
    const value = READERS[key](raw);
    if (value === null) {
      broken ??= key as 'from' | 'to';
      state[key] = READERS[key](undefined);
    }
    // A parameter given but unreadable is there as undefined (as zod's catch left it); one not given, absent.
    else if (value !== undefined || raw !== undefined) state[key] = value;
  }
  const read = state as ExplorerState;
  if (broken)
    return { state: read, dateError: { kind: 'invalid', field: broken, value: params.getAll(broken).at(-1) ?? '' } };
  return { state: read, dateError: null };
}

const DEFAULTS = readState(new URLSearchParams()).state;
/** Written whatever their value: the range, so that a link says which days it shows, and the zone they are read in. */
const ALWAYS_WRITTEN = new Set<string>(['from', 'to', 'tz']);

/**
 * The range and the zone always go into the URL (a link opens the same days for whoever opens it, wherever,
 * whatever the organisation's default view); everything else only where it differs from its default. In a
 * stable order.
 */
export function writeState(state: ExplorerState): string {
  const params = new URLSearchParams();
  for (const key of EXPLORER_KEYS) {
    const value = state[key];
    if (value === undefined || value === '' || (!ALWAYS_WRITTEN.has(key) && value === DEFAULTS[key])) continue;
    params.set(key, String(value));
  }
  return queryString(params);
}

/**
 * Added by the redirect of a bare `/batches` to the organisation's default view (lib/contract/views.ts), for
 * that one page load: the page says which view it opened, then takes it out of the address, so a link copied
 * or shared from there never says so.
 */
export const OPENED = 'opened';

/**
 * The address to put in place of `params` once the page has read it, or null when it already says everything:
 * the range when the link left it out (an older link: All time's ends, or `now` after a From of its own), the
 * zone the page reads it in, and without the default view's one-shot `opened`. The other parameters stay as
 * they are, a broken day included, to be explained.
 */
export function explicitQuery(
  params: URLSearchParams,
  state: Pick<ExplorerState, 'from' | 'to' | 'tz'>,
): string | null {
  const rangeMissing = !params.has('from') || !params.has('to');
  if (!rangeMissing && params.get('tz') === state.tz && !params.has(OPENED)) return null;
  const next = new URLSearchParams(params);
  next.delete(OPENED);
  next.set('tz', state.tz);
  if (!rangeMissing) return queryString(next);
  const given = (key: 'from' | 'to') => params.getAll(key).at(-1) ?? state[key];
  const range = new URLSearchParams({ from: given('from'), to: given('to') });
  for (const [key, value] of next) if (key !== 'from' && key !== 'to') range.append(key, value);
  return queryString(range);
}

/** A query string that leaves `/` as it is (allowed in a query): `tz=Europe/Amsterdam` reads as it says. */
export function queryString(params: URLSearchParams): string {
  return params.toString().replaceAll('%2F', '/');
}
