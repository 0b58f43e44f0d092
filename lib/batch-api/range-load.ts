import { Channel } from '../async/channel';
import { Workers } from '../async/workers';
import type { Batch } from '../contract';
import { AdaptiveLimit } from './adaptive-limit';
import type { BatchApiClient } from './client';
import {
  estimatePages,
  inAnyPart,
  maxUnfinishedParts,
  mergeParts,
  partBounds,
  partBoundsMs,
  partCount,
  planParts,
  recutCount,
  splitPart,
  spanOf,
  type RangePart,
} from './range-parts';
import type { BatchQuery } from './schemas';

/** Requests one load starts with in flight unless told otherwise (`BATCH_API_CONCURRENCY`). */
export const DEFAULT_CONCURRENCY = 8;
/** The most a load may grow to while the service keeps pace (`BATCH_API_MAX_CONCURRENCY`). */
export const DEFAULT_MAX_CONCURRENCY = 32;
/** The most either setting may ask for; it also bounds the parts a resumed load may send back (see maxUnfinishedParts). */
export const MAX_CONCURRENCY = 32;

export type RangeLoadOptions = {
  /** Upstream requests in flight at first (the service's rate limits are unknown). Default DEFAULT_CONCURRENCY. */
  concurrency?: number;
  /**
   * The most requests in flight it may grow to while exchanges stay as fast as at the start and nothing is
   * refused (see AdaptiveLimit). Default: `concurrency` (no growth).
   */
  maxConcurrency?: number;
  /** Resume: fetch only these parts (from `remaining()` of a load that failed) instead of the whole range. */
  parts?: RangePart[];
  signal?: AbortSignal;
  /** Clock, for planning open-ended ranges. */
  now?: () => number;
};

/** A part walked for more pages than this is finished alone rather than cut again (its pages would be fetched twice). */
const MAX_PAGES_TO_RECUT = 4;
/** Chunks held for a slow reader before the loader waits for it. */
const MAX_BUFFERED_CHUNKS = 64;

/**
 * Every batch of a range, fetched as several date parts at once, each walked with its own cursor.
 *
 * - The first page of the whole range comes first: a small range costs one request, and the first rows
 *   arrive after one round trip whatever the size of the range.
 * - A bigger range is cut into equal time spans, planned from that page when an end is open (see planParts); a part whose
 *   first page shows it holds more than a page is cut again while request slots would otherwise sit idle,
 *   so the split follows where the batches are. Nothing assumes the service's order within a page.
 * - Parts share their boundary instants (inclusive filters): each batch is given out once, by `batch_id`.
 * - Requests in flight adapt to the service (AdaptiveLimit): a 429 drops them to what it carried, a 503 or a
 *   gateway error halves them; the client itself waits and retries those.
 * - On failure, `remaining()` names the parts not finished; a new load of those parts resumes the range.
 */
export class RangeLoad {
  private queue: RangePart[] = [];
  private active = new Set<RangePart>();
  /**
   * Parts walked to their end whose chunks still wait in the buffer, with how many: not given out yet, so
   * still unfinished for a resume. A part cut again leaves this map (the parts it was cut into cover it).
   */
  private unsent = new Map<RangePart, number>();
  /**
   * How far a part has been given out, for the parts the service has walked oldest first so far: every batch
   * of the part up to this instant (ms) is out, so a resume needs only the rest. A part answered in any other
   * order is resumed whole (the contract does not say in which order a service pages).
   */
  private through = new Map<RangePart, number>();
  private seen = new Set<string>();
  private started = false;
  private finished = false;
  private readonly start: number;
  /** Workers, one per request the limit may grow to. */
  private readonly slots: number;
  private readonly limit: AdaptiveLimit;
  private readonly now: () => number;

  constructor(
    private readonly client: BatchApiClient,
    private readonly query: BatchQuery,
    private readonly options: RangeLoadOptions = {},
  ) {
    this.start = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.slots = Math.max(this.start, options.maxConcurrency ?? this.start);
    this.limit = new AdaptiveLimit(this.start, { max: this.slots });
    this.now = options.now ?? Date.now;
  }

  /** Batches given out so far. */
  get count(): number {
    return this.seen.size;
  }

  /** The adaptive limit now: requests it may have in flight, and has (for metrics). */
  get concurrency(): { limit: number; inFlight: number } {
    return { limit: this.limit.limit, inFlight: this.limit.running };
  }

  /**
   * Parts whose batches have not all been given out yet; empty once the load completed. Read between chunks,
   * it names everything that a reader holding the chunks so far may still miss (a stream cut after any chunk
   * resumes from it); never more parts than a resume may send back.
   */
  remaining(): RangePart[] {
    if (this.finished) return [];
    if (!this.started) return this.options.parts ?? [this.query];
    const parts = [...this.active, ...this.queue, ...[...this.unsent.keys()].filter((p) => !this.active.has(p))];
    return mergeParts(
      parts.map((p) => this.rest(p)),
      maxUnfinishedParts(this.slots),
    );
  }

  /** The batches in chunks as pages arrive, each batch once. Chunks are never empty. */
  async *chunks(): AsyncGenerator<Batch[]> {
    if (this.started) throw new Error('A RangeLoad runs once; start a new one with remaining() to resume');
    this.started = true;
    const abort = new AbortController();
    const outer = this.options.signal;
    const onOuterAbort = () => abort.abort(outer!.reason);
    if (outer?.aborted) onOuterAbort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const signal = abort.signal;
    const out = new Channel<Chunk>(MAX_BUFFERED_CHUNKS);

    try {
      // The first page of the whole range first, for a resume too: a range of one page is answered from it
      // (a resume's many small parts would each cost a request), and so a resume never costs more requests
      // than loading the range again, plus this one.
      const whole: RangePart = this.query;
      const resumed = this.options.parts;
      if (resumed) this.queue = [...resumed];
      else this.active.add(whole);
      const first = await this.request(whole, null, signal);
      const wanted = resumed ? inAnyPart(resumed) : () => true;
      const fresh = this.fresh(first.data.filter((b) => wanted(b.batch_creation_date)));
      if (fresh.length) yield fresh;
      this.active.delete(whole);
      if (first.next_token === null) {
        this.finished = true;
        return;
      }
      // Newest parts first: tables open newest first, so the top of the view settles soonest.
      // A resume's parts, merged to no more than a fresh plan of the whole range would walk.
      const now = this.now();
      const count = partCount(this.start, this.slots, estimatePages(whole, first.data, now));
      this.queue = (resumed ? mergeParts(resumed, count) : planParts(whole, count, first.data, now)).reverse();

      // A part counts as active from the moment a worker takes it, so no other worker sees an empty moment.
      const take = () => {
        const part = this.queue.shift();
        if (part) this.active.add(part);
        return part;
      };
      const workers = new Workers<RangePart>(take, () => this.active.size === 0);
      const run = async () => {
        for (let part = await workers.next(signal); part; part = await workers.next(signal)) {
          await this.walk(part, workers, out, signal);
        }
      };
      void Promise.all(Array.from({ length: this.slots }, run)).then(
        () => out.close(),
        (error: unknown) => {
          abort.abort(error);
          workers.wake();
          out.fail(error);
        },
      );
      for (;;) {
        const chunk = await out.take();
        if (chunk === undefined) break;
        this.given(chunk);
        yield chunk.batches;
      }
      this.finished = true;
    } finally {
      outer?.removeEventListener('abort', onOuterAbort);
      if (!this.finished) {
        abort.abort(new Error('The range load was stopped'));
        out.fail(signal.reason);
      }
    }
  }

  /** A chunk leaves the buffer: its part has that much less to give out, and has been given out that far. */
  private given({ part, through }: Chunk) {
    const left = this.unsent.get(part);
    if (left === undefined) return; // a part cut again: the parts it became cover it
    if (left > 1) this.unsent.set(part, left - 1);
    else this.unsent.delete(part);
    if (through === undefined || (left === 1 && !this.active.has(part))) this.through.delete(part);
    else this.through.set(part, through);
  }

  /** What of `part` is still to give out: from the instant it has been given out to, when known, else all of it. */
  private rest(part: RangePart): RangePart {
    const through = this.through.get(part);
    // At the part's end instant itself (batches tied there may still be out), nothing narrower is known.
    if (through === undefined || through <= partBoundsMs(part).start || through >= partBoundsMs(part).end) return part;
    return { ...part, start_date: new Date(through).toISOString() };
  }

  private async walk(part: RangePart, workers: Workers<RangePart>, out: Channel<Chunk>, signal: AbortSignal) {
    let cursor: string | null = null;
    // Earliest and latest instants walked so far: planning bounds when this part's ends are open.
    let lo = Infinity;
    let hi = -Infinity;
    // The latest instant of the pages so far while each came oldest first and after the page before; once
    // not, undefined for the rest of the walk.
    let ordered: number | undefined = -Infinity;
    for (let walked = 1; ; walked++) {
      const page = await this.request(part, cursor, signal);
      ordered = ordered === undefined ? undefined : lastIfOldestFirst(page.data, ordered);
      const fresh = this.fresh(page.data);
      if (fresh.length) {
        this.unsent.set(part, (this.unsent.get(part) ?? 0) + 1);
        await out.put({ part, batches: fresh, through: ordered }, signal);
      }
      if (page.next_token === null) break;
      if (walked <= MAX_PAGES_TO_RECUT) {
        const span = spanOf(page.data);
        lo = Math.min(lo, span.lo ?? Infinity);
        hi = Math.max(hi, span.hi ?? -Infinity);
        if (this.recut(part, workers, walked, lo, hi)) {
          this.unsent.delete(part);
          this.through.delete(part);
          break;
        }
      }
      cursor = page.next_token;
    }
    this.active.delete(part);
    if (!this.unsent.has(part)) this.through.delete(part);
    workers.wake();
  }

  /**
   * More to walk in `part` while request slots sit idle: cut it into that many more parts instead of walking
   * it alone. The new parts fetch what was walked again (its batches are already given out), which is why
   * only a part walked for a few pages is cut. Nothing here assumes the order of the service's pages.
   */
  private recut(part: RangePart, workers: Workers<RangePart>, walked: number, lo: number, hi: number): boolean {
    // Only while nothing is queued: walkers woken together (a slow reader let them all go) would otherwise
    // each cut for the same idle slots, and the unfinished parts could outgrow what a resume may send back.
    if (workers.idle === 0 || this.queue.length > 0) return false;
    // Slots the limit allows now that no part holds: a part more than those only waits at the gate.
    const spare = Math.min(workers.idle, this.limit.limit - this.active.size);
    if (spare < 1) return false;
    const known = { lo: Number.isFinite(lo) ? lo : undefined, hi: Math.max(this.now(), hi) };
    const bounds = partBounds(part);
    const count = recutCount(spare, walked, { lo, hi }, { from: bounds.from ?? known.lo, to: bounds.to ?? known.hi });
    if (count < 2) return false;
    const parts = splitPart(part, count, known);
    if (parts.length < 2) return false;
    this.queue.unshift(...parts.reverse());
    workers.wake();
    return true;
  }

  /** One page, holding a slot of the adaptive limit while it runs (see RequestOptions.gate). */
  private request(part: RangePart, cursor: string | null, signal: AbortSignal) {
    return this.client.page(part, cursor, { signal, gate: this.limit });
  }

  private fresh(batches: Batch[]): Batch[] {
    const fresh: Batch[] = [];
    for (const b of batches) {
      if (this.seen.has(b.batch_id)) continue;
      this.seen.add(b.batch_id);
      fresh.push(b);
    }
    return fresh;
  }
}

/** Batches of one page of `part`; `through`: the part is given out up to this instant once they are (see RangeLoad.through). */
type Chunk = { part: RangePart; batches: Batch[]; through: number | undefined };

/** The page's latest instant if its batches come oldest first, none before `after`; else undefined. */
function lastIfOldestFirst(batches: readonly Batch[], after: number): number | undefined {
  let last = after;
  for (const b of batches) {
    const ms = Date.parse(b.batch_creation_date);
    if (Number.isNaN(ms) || ms < last) return undefined;
    last = ms;
  }
  return last;
}
