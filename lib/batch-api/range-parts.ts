import { dateRange, type DateRange } from '../contract';
import { lowerBoundMs, parseUtcDate, upperBoundMs } from '../utc-date';

/**
 * A slice of a date range, fetched with its own cursor. The service's filters are inclusive at both ends, so
 * neighbouring parts share their boundary instant: a batch created exactly there comes back twice and the
 * loader keeps it once (by `batch_id`). A missing end stays open, exactly as the person asked.
 */
export type RangePart = DateRange;

const iso = (ms: number) => new Date(ms).toISOString();

function boundMs(value: string | undefined, side: 'start' | 'end'): number | undefined {
  if (value === undefined) return undefined;
  const parsed = parseUtcDate(value);
  if (!parsed.ok) return undefined;
  return side === 'start' ? lowerBoundMs(parsed.instant) : upperBoundMs(parsed.instant);
}

/**
 * Cuts `part` into at most `count` parts of equal time span. `known.lo`/`known.hi` stand in for an open end
 * when planning (e.g. the earliest batch seen so far, or now); the outer parts still keep the open end, so
 * nothing before or after the planning bounds is lost.
 */
export function splitPart(part: RangePart, count: number, known: { lo?: number; hi?: number } = {}): RangePart[] {
  const lo = boundMs(part.start_date, 'start') ?? known.lo;
  const hi = boundMs(part.end_date, 'end') ?? known.hi;
  if (lo === undefined || hi === undefined || hi - lo < 2 || count < 2) return [part];
  const n = Math.min(count, hi - lo);
  const cuts: number[] = [];
  for (let i = 1; i < n; i++) {
    const cut = Math.round(lo + ((hi - lo) * i) / n);
    if (cut > lo && cut < hi && cut !== cuts.at(-1)) cuts.push(cut);
  }
  if (cuts.length === 0) return [part];
  const parts: RangePart[] = [];
  let start = part.start_date;
  for (const cut of cuts) {
    parts.push(dateRange(start, iso(cut)));
    start = iso(cut);
  }
  parts.push(dateRange(start, part.end_date));
  return parts;
}

/** Earliest and latest creation instants among some batches (planning bounds for open ends). */
export function spanOf(batches: readonly { batch_creation_date: string }[]): { lo?: number; hi?: number } {
  let lo: number | undefined;
  let hi: number | undefined;
  for (const b of batches) {
    const ms = Date.parse(b.batch_creation_date);
    if (Number.isNaN(ms)) continue;
    if (lo === undefined || ms < lo) lo = ms;
    if (hi === undefined || ms > hi) hi = ms;
  }
  return { lo, hi };
}

const DAY_MS = 86_400_000;
/** Parts planned per request slot: uneven parts (seasons, weekends) then even out across the slots. */
const PARTS_PER_SLOT = 4;
/** Steps back in time, each 4× wider, behind the earliest batch seen; then one open part for anything older. */
const STEPS_BACK = 6;
/** Each step back is cut into this many parts. */
const PARTS_PER_STEP = 4;

/** Parts a plan gives the recent span (all of a range with a start): a resume never walks more than these. */
export function plannedParts(concurrency: number): number {
  return concurrency * PARTS_PER_SLOT;
}

/** A part planned smaller than this many pages (by estimate) costs more in its last, partial page than it gains. */
const MIN_PAGES_PER_PART = 3;

/**
 * How many parts to plan for a load starting at `start` requests in flight and allowed to grow to `max`:
 * PARTS_PER_SLOT a starting slot (uneven parts even out), at least one per slot it may grow to, but no more
 * than keep parts MIN_PAGES_PER_PART pages long when the first page lets the pages be counted (see
 * estimatePages): every part ends in a partial page, so the requests stay near the page count. Never more
 * than plannedParts(max), the bound a resume is held to.
 */
export function partCount(start: number, max: number, estimatedPages?: number): number {
  const most = Math.max(start * PARTS_PER_SLOT, max);
  if (estimatedPages === undefined || !Number.isFinite(estimatedPages)) return most;
  return Math.max(2, Math.min(most, Math.ceil(estimatedPages / MIN_PAGES_PER_PART)));
}

/**
 * Parts to cut a part into when `spare` request slots sit idle: at most one per slot, and (when the pages
 * walked so far let the part's pages be guessed: `walked` pages spanned `lo`..`hi` of its `from`..`to`) no
 * more than keep each MIN_PAGES_PER_PART pages long, since each new part ends in a partial page and the
 * pages walked are fetched again. Below 2, cutting costs more than it saves.
 */
export function recutCount(
  spare: number,
  walked: number,
  span: { lo: number; hi: number },
  bounds: { from?: number; to?: number },
): number {
  const from = bounds.from ?? span.lo;
  const to = bounds.to ?? span.hi;
  const most = spare + 1;
  if (!(span.hi > span.lo) || !Number.isFinite(from) || !Number.isFinite(to)) return most;
  const pages = (walked * (to - from)) / (span.hi - span.lo);
  return Math.min(most, Math.floor(pages / MIN_PAGES_PER_PART));
}

/** A part's bounds in ms, its open ends undefined. */
export function partBounds(part: RangePart): { from?: number; to?: number } {
  return { from: boundMs(part.start_date, 'start'), to: boundMs(part.end_date, 'end') };
}

/**
 * Pages the whole range holds, guessed from its first page when that page came in creation order (either
 * way) and the range's span is known from it: the span of the range over the span of one page. Undefined when
 * it cannot be told (no order, one instant, a newest-first page with an open start).
 */
export function estimatePages(
  whole: RangePart,
  first: readonly { batch_creation_date: string }[],
  now: number,
): number | undefined {
  if (first.length < 2) return undefined;
  const seen = spanOf(first);
  if (seen.lo === undefined || seen.hi === undefined || seen.hi <= seen.lo) return undefined;
  const ascending = oldestFirst(first);
  if (!ascending && !oldestFirst([...first].reverse())) return undefined;
  const lo = boundMs(whole.start_date, 'start') ?? (ascending ? seen.lo : undefined);
  const hi = boundMs(whole.end_date, 'end') ?? Math.max(now, seen.hi);
  if (lo === undefined || hi <= lo) return undefined;
  return (hi - lo) / (seen.hi - seen.lo);
}

/**
 * The most parts a load with `concurrency` request slots can have unfinished, and so the most a resumed load
 * can send back: its plan (the recent span in PARTS_PER_SLOT parts a slot, the steps back and the open part
 * before them), or later the parts being walked plus a recut's new parts (a recut only happens while no part
 * is queued, and cuts one walked part into at most one part per slot).
 */
export function maxUnfinishedParts(concurrency: number): number {
  return Math.max(concurrency * PARTS_PER_SLOT + STEPS_BACK * PARTS_PER_STEP + 1, 2 * concurrency);
}

/** Parts behind the first page never start before this (the open part covers anything earlier). */
const FLOOR_MS = Date.UTC(1970, 0, 1);

/** True when the batches are in ascending creation order (what a service answering oldest first sends). */
export function oldestFirst(batches: readonly { batch_creation_date: string }[]): boolean {
  for (let i = 1; i < batches.length; i++) {
    if (Date.parse(batches[i]!.batch_creation_date) < Date.parse(batches[i - 1]!.batch_creation_date)) return false;
  }
  return true;
}

/**
 * The plan for a range whose first page showed it holds more than a page, in `count` parts (see partCount).
 * With a start date, or when the first page came oldest first (so its earliest batch is where the history
 * begins), equal parts from there to the end; the first part keeps the open start, so nothing earlier is lost.
 * Otherwise (a service that answers newest first, or in no order: the contract does not say) the first page
 * only shows the recent end: equal parts over that, and behind it parts that widen 4× per step, each cut in
 * four, then one open part.
 */
export function planParts(
  whole: RangePart,
  count: number,
  first: readonly { batch_creation_date: string }[],
  now: number,
): RangePart[] {
  const seen = spanOf(first);
  const hi = Math.max(now, seen.hi ?? 0);
  if (whole.start_date !== undefined || seen.lo === undefined || oldestFirst(first))
    return splitPart(whole, count, { lo: seen.lo, hi });
  const recent = splitPart(dateRange(iso(seen.lo), whole.end_date), count, { hi });
  const older: RangePart[] = [];
  let end = seen.lo;
  for (
    let step = 0, width = Math.max(hi - seen.lo, DAY_MS);
    step < STEPS_BACK && end - width >= FLOOR_MS;
    step++, width *= 4
  ) {
    older.unshift(...splitPart(dateRange(iso(end - width), iso(end)), PARTS_PER_STEP));
    end -= width;
  }
  older.unshift(dateRange(undefined, iso(end)));
  return [...older, ...recent];
}

const startMs = (part: RangePart) => boundMs(part.start_date, 'start') ?? -Infinity;
const endMs = (part: RangePart) => boundMs(part.end_date, 'end') ?? Infinity;

/** Whether a creation instant falls in one of `parts` (both ends inclusive, an absent end open). */
export function inAnyPart(parts: readonly RangePart[]): (date: string) => boolean {
  const spans = parts.map((p) => [startMs(p), endMs(p)] as const);
  return (date) => {
    const at = Date.parse(date);
    return spans.some(([from, to]) => at >= from && at <= to);
  };
}

/**
 * Disjoint parts merged with their neighbours into at most `max` parts, in time order. A merged part also
 * covers the gaps between the parts it took in (batches fetched again, and given out once): what a resume
 * sends back can never make more parts to walk than a fresh plan would (see plannedParts).
 */
export function mergeParts(parts: readonly RangePart[], max: number): RangePart[] {
  const sorted = [...parts].sort((a, b) => startMs(a) - startMs(b));
  if (sorted.length <= max) return sorted;
  const size = Math.ceil(sorted.length / max);
  const merged: RangePart[] = [];
  for (let i = 0; i < sorted.length; i += size) {
    const group = sorted.slice(i, i + size);
    merged.push(dateRange(group[0]!.start_date, group.at(-1)!.end_date));
  }
  return merged;
}

/**
 * A part's bounds as whole milliseconds, both inclusive: `-Infinity`/`Infinity` for an open end. A batch
 * created at or after the next part's `start` belongs to that part (see OrderedLoad).
 */
export function partBoundsMs(part: RangePart): { start: number; end: number } {
  return { start: startMs(part), end: endMs(part) };
}
