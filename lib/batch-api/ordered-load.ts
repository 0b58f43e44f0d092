import { dateRange, type Batch } from '../contract';
import { AdaptiveLimit, type ConcurrencyGate } from './adaptive-limit';
import type { BatchApiClient } from './client';
import { DEFAULT_CONCURRENCY } from './range-load';
import { partBoundsMs, plannedParts, planParts, splitPart, type RangePart } from './range-parts';
import type { BatchQuery } from './schemas';

export type OrderedLoadOptions = {
  /** Request slots (the gate's most). Default DEFAULT_CONCURRENCY. */
  concurrency?: number;
  /** Shared with other work, or an AdaptiveLimit of `concurrency` of its own. */
  gate?: ConcurrencyGate;
  signal?: AbortSignal;
  /** Clock, for planning open-ended ranges. */
  now?: () => number;
  /** Pages a part is cut to hold, about. Default 6. */
  pagesPerPart?: number;
  /** Parts fetched at once ahead of the one being given out, that one included. Default 2 × concurrency, at most MAX_WINDOW. */
  window?: number;
};

/** Creation instant in whole milliseconds (Date.parse truncates finer digits, as the service's bounds do). */
const msOf = (b: Batch) => {
  const ms = Date.parse(b.batch_creation_date);
  return Number.isNaN(ms) ? Infinity : ms;
};

/** Ascending creation instant, ties by `batch_id` (code units, as the sandbox orders them). */
function compareKeys(ams: number, aid: string, bms: number, bid: string): number {
  if (ams !== bms) return ams < bms ? -1 : 1;
  return aid < bid ? -1 : aid > bid ? 1 : 0;
}

/** The batches in creation order (ascending creation instant, ties by batch_id), a new array. */
export function inCreationOrder(batches: readonly Batch[]): Batch[] {
  return batches
    .map((b) => ({ b, ms: msOf(b) }))
    .sort((x, y) => compareKeys(x.ms, x.b.batch_id, y.ms, y.b.batch_id))
    .map((x) => x.b);
}

/** True when `batches` continue `after` in creation order, each after the one before. */
function continuesInOrder(batches: readonly Batch[], after: Batch | undefined): boolean {
  let prev = after;
  let prevMs = after ? msOf(after) : -Infinity;
  for (const b of batches) {
    const ms = msOf(b);
    if (prev && compareKeys(prevMs, prev.batch_id, ms, b.batch_id) >= 0) return false;
    prev = b;
    prevMs = ms;
  }
  return true;
}

/**
 * A time part of the range and what has come back for it. Neighbouring parts share their boundary instant
 * (the service's filters are inclusive): a part keeps only batches created before `ownsBelow`, the start of
 * the part after it, which keeps the rest. A part cut from the remainder of another (see recut) starts at the
 * last instant that one gave out, and skips the batches at that instant it gave out already (`skip`).
 */
type Slot = {
  range: RangePart;
  ownsBelow: number;
  skip?: { ms: number; ids: Set<string> };
  started: boolean;
  done: boolean;
  /** Kept batches not given out yet, in pages. */
  pages: Batch[][];
  /** Every page so far continued the one before in creation order: the part can be given out as it comes. */
  ordered: boolean;
  /** Something of this part was given out already (it can no longer be dropped and fetched again). */
  given: boolean;
  /** The last batch walked (in the service's order) and the ids walked at its instant. */
  last?: Batch;
  lastMs: number;
  tie: Set<string>;
  walked: number;
};

/** A part held whole (the service answered out of order) and grown past this many pages is cut and fetched again. */
const MAX_HELD_PAGES_FACTOR = 2;
/** Parts held at most by default, whatever the concurrency (about 6 pages each). */
const MAX_WINDOW = 24;
/** A recut makes at most this many parts at once (they are cut again if they turn out big). */
const MAX_RECUT = 16;

/**
 * Every batch of a range in creation order (ascending creation instant, ties by `batch_id`), fetched as
 * several time parts at once, each walked with its own cursor, for a file written front to back.
 *
 * - The first page of the whole range comes first: its rows are given out at once when the service answers
 *   oldest first (the first rows after one round trip), and a range of one page costs one request.
 * - The rest is cut into parts in time order, planned from that page (open ends stay open: nothing before or
 *   after the planning bounds is lost, see planParts). At most `window` parts are fetched at once, starting
 *   with the one being given out: the head part is given out page by page as it arrives, the parts after it
 *   are held until it ends. A part whose first pages show it holds more than `pagesPerPart` is cut again from
 *   where its walk got to (nothing fetched twice), so memory stays at about `window × pagesPerPart` pages
 *   whatever the size of the range.
 * - Each batch is given out once without remembering all ids: a part keeps only the batches before the next
 *   part's start (see Slot).
 * - The service's order is not part of its contract: when the first page is not oldest first, or a part's
 *   pages are not, parts are held whole and sorted (a held part grown past twice its planned pages is cut
 *   and fetched again, so memory stays bounded then too, at the cost of requests).
 * - Requests share one adaptive gate (AdaptiveLimit); the client waits and retries 429s and 503s. Any other
 *   failure ends the load with that error, and stopping the iteration aborts every request in flight.
 */
export class OrderedLoad {
  private slots: Slot[] = [];
  private head = 0;
  private failure: { error: unknown } | undefined;
  private waiters: (() => void)[] = [];
  private started = false;
  private readonly slotsCount: number;
  private readonly gate: ConcurrencyGate;
  private readonly now: () => number;
  private readonly perPart: number;
  private readonly window: number;
  private held = 0;
  /** The most batches held at once (fetched, not given out yet): what memory the ordering costs. */
  mostHeld = 0;
  /** Requests made, the first page's included. */
  requests = 0;

  constructor(
    private readonly client: Pick<BatchApiClient, 'page'>,
    private readonly query: BatchQuery,
    private readonly options: OrderedLoadOptions = {},
  ) {
    this.slotsCount = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.gate = options.gate ?? new AdaptiveLimit(this.slotsCount);
    this.now = options.now ?? Date.now;
    this.perPart = options.pagesPerPart ?? 6;
    this.window = options.window ?? Math.min(2 * this.slotsCount, MAX_WINDOW);
  }

  /**
   * The batches in creation order, in chunks. The first chunk comes after the first page (it may be empty:
   * await it before answering, so that bad input or an outage still get their status); every later chunk
   * holds at least one batch.
   */
  async *chunks(): AsyncGenerator<Batch[]> {
    if (this.started) throw new Error('An OrderedLoad runs once');
    this.started = true;
    const abort = new AbortController();
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, abort.signal]) : abort.signal;
    const wakeAll = () => this.notify();
    signal.addEventListener('abort', wakeAll, { once: true });
    let finished = false;
    try {
      const whole: RangePart = this.query;
      const first = await this.request(whole, null, signal);
      if (first.next_token === null) {
        finished = true;
        yield inCreationOrder(first.data);
        return;
      }
      const ordered =
        first.data.length > 0 && continuesInOrder(first.data, undefined) && Number.isFinite(msOf(first.data.at(-1)!));
      // Out of order, the first page's batches may be anywhere in the range: its parts fetch them again.
      if (ordered) this.planAfterFirst(whole, first.data);
      else this.planParts(planParts(whole, this.slotsCount, first.data, this.now()), false);
      // The parts are asked for before the first page is given out (while the answer's head goes out).
      const workers = Array.from({ length: this.slotsCount }, () => this.work(signal));
      void Promise.all(workers).catch((error: unknown) => {
        this.failure ??= { error };
        abort.abort(error);
        this.notify();
      });
      yield ordered ? first.data : [];
      while (this.head < this.slots.length) {
        const slot = this.slots[this.head]!;
        if (this.failure) throw this.failure.error;
        if (slot.done) {
          const rows = this.take(slot);
          this.slots[this.head] = undefined as unknown as Slot; // let it go
          this.head++;
          this.compact();
          this.notify(); // the window moved on
          if (rows.length) yield slot.ordered ? rows : inCreationOrder(rows);
          continue;
        }
        if (slot.ordered && slot.pages.length) {
          slot.given = true;
          yield this.take(slot);
          continue;
        }
        await this.changed();
        signal.throwIfAborted();
      }
      finished = true;
    } finally {
      if (!finished) abort.abort(new Error('The ordered load was stopped'));
      signal.removeEventListener('abort', wakeAll);
    }
  }

  /** Oldest first: the first page is given out; parts cover the rest, from the last instant it reached. */
  private planAfterFirst(whole: RangePart, first: readonly Batch[]) {
    const last = first.at(-1)!;
    const lastMs = msOf(last);
    const tie = new Set(first.filter((b) => msOf(b) === lastMs).map((b) => b.batch_id));
    const end = partBoundsMs(whole).end;
    const hi = Number.isFinite(end) ? end : Math.max(this.now(), lastMs);
    const rest = dateRange(new Date(lastMs).toISOString(), whole.end_date);
    this.planParts(splitPart(rest, plannedParts(this.slotsCount), { lo: lastMs, hi }), true, { ms: lastMs, ids: tie });
  }

  private planParts(parts: RangePart[], ordered: boolean, skip?: Slot['skip']) {
    this.slots.push(...this.slotsFor(parts, Infinity, ordered, skip));
  }

  /** Slots for consecutive parts; the last keeps what the part they replace owned. */
  private slotsFor(parts: RangePart[], ownsBelow: number, ordered: boolean, skip?: Slot['skip']): Slot[] {
    return parts.map((range, i) => ({
      range,
      ownsBelow: i + 1 < parts.length ? partBoundsMs(parts[i + 1]!).start : ownsBelow,
      skip: i === 0 ? skip : undefined,
      started: false,
      done: false,
      pages: [],
      ordered,
      given: false,
      lastMs: -Infinity,
      tie: new Set(),
      walked: 0,
    }));
  }

  /** A request slot's loop: the earliest part in the window not started yet, walked to its end (or its recut). */
  private async work(signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      if (this.failure) return;
      const slot = this.nextToStart();
      if (slot === null) return;
      if (slot) {
        slot.started = true;
        await this.walk(slot, signal);
        continue;
      }
      await this.changed();
    }
  }

  /** The slot to walk next; undefined: none in the window now; null: every part is started and none is left to walk. */
  private nextToStart(): Slot | undefined | null {
    const end = Math.min(this.slots.length, this.head + this.window);
    let busy = false;
    for (let i = this.head; i < this.slots.length; i++) {
      const slot = this.slots[i]!;
      if (!slot.started) return i < end ? slot : undefined;
      if (!slot.done) busy = true;
    }
    // A part being walked may still be recut into new parts.
    return busy ? undefined : null;
  }

  private async walk(slot: Slot, signal: AbortSignal): Promise<void> {
    let cursor: string | null = null;
    for (;;) {
      const page = await this.request(slot.range, cursor, signal);
      slot.walked++;
      if (slot.ordered && !continuesInOrder(page.data, slot.last)) slot.ordered = false;
      this.note(slot, page.data);
      const kept = this.keep(slot, page.data);
      if (kept.length) {
        slot.pages.push(kept);
        this.held += kept.length;
        this.mostHeld = Math.max(this.mostHeld, this.held);
        this.notify();
      }
      if (page.next_token === null) break;
      if (slot.ordered) {
        if (this.recut(slot)) break;
      } else if (this.refetch(slot)) {
        cursor = null;
        continue;
      }
      cursor = page.next_token;
    }
    slot.done = true;
    this.notify();
  }

  /** The last batch walked and the ids at its instant (only meaningful while the part is ordered). */
  private note(slot: Slot, data: readonly Batch[]) {
    for (const b of data) {
      const ms = msOf(b);
      if (ms !== slot.lastMs) {
        slot.lastMs = ms;
        slot.tie = new Set();
      }
      slot.tie.add(b.batch_id);
      slot.last = b;
    }
  }

  /** The batches this part owns (see Slot). */
  private keep(slot: Slot, data: readonly Batch[]): Batch[] {
    const skip = slot.skip;
    return data.filter((b) => {
      const ms = msOf(b);
      if (ms >= slot.ownsBelow && Number.isFinite(ms)) return false;
      return !(skip && ms === skip.ms && skip.ids.has(b.batch_id));
    });
  }

  /**
   * An ordered part whose walk so far shows more than `pagesPerPart` pages to come: the rest of it, from the
   * last instant walked, becomes parts of about that size, walked in parallel; this one ends here. Nothing is
   * fetched twice but the batches at that instant (skipped by id).
   */
  private recut(slot: Slot): boolean {
    const { start, end } = partBoundsMs(slot.range);
    const from = Number.isFinite(start) ? start : slot.skip?.ms;
    const to = Number.isFinite(end) ? end : Math.max(this.now(), slot.lastMs);
    if (from === undefined || !Number.isFinite(slot.lastMs) || slot.lastMs <= from || slot.lastMs >= to) return false;
    const covered = (slot.lastMs - from) / (to - from);
    const toCome = (slot.walked * (1 - covered)) / covered;
    if (toCome <= this.perPart) return false;
    const rest = dateRange(new Date(slot.lastMs).toISOString(), slot.range.end_date);
    const parts = splitPart(rest, Math.min(MAX_RECUT, Math.ceil(toCome / this.perPart)), { lo: slot.lastMs, hi: to });
    if (parts.length < 2) return false;
    this.insertAfter(slot, this.slotsFor(parts, slot.ownsBelow, true, { ms: slot.lastMs, ids: slot.tie }));
    this.notify();
    return true;
  }

  /**
   * A part held whole (out of order) grown past its share of memory, nothing of it given out yet: dropped and
   * fetched again as smaller parts, so that held memory stays bounded whatever the service's order. The slot
   * keeps the first of them (it may be the head) and walks it from its start.
   */
  private refetch(slot: Slot): boolean {
    if (slot.given || slot.walked < MAX_HELD_PAGES_FACTOR * this.perPart) return false;
    const held = slot.pages.flat();
    const seen = held.map(msOf).filter(Number.isFinite);
    const lo = seen.length ? Math.min(...seen) : undefined;
    const hi = Math.max(this.now(), ...seen);
    const parts = splitPart(slot.range, 4, { lo, hi });
    if (parts.length < 2) return false;
    this.held -= held.length;
    this.insertAfter(slot, this.slotsFor(parts, slot.ownsBelow, false).slice(1));
    Object.assign(slot, {
      range: parts[0]!,
      ownsBelow: partBoundsMs(parts[1]!).start,
      pages: [],
      walked: 0,
      last: undefined,
      lastMs: -Infinity,
      tie: new Set(),
    });
    this.notify();
    return true;
  }

  private insertAfter(slot: Slot, parts: Slot[]) {
    const at = this.slots.indexOf(slot, this.head);
    this.slots.splice(at + 1, 0, ...parts);
  }

  /** Drops the given-out parts from the front of the list now and then (the list itself stays small). */
  private compact() {
    if (this.head < 1024) return;
    this.slots.splice(0, this.head);
    this.head = 0;
  }

  private take(slot: Slot): Batch[] {
    const rows = slot.pages.length === 1 ? slot.pages[0]! : slot.pages.flat();
    slot.pages = [];
    this.held -= rows.length;
    return rows;
  }

  private request(part: RangePart, cursor: string | null, signal: AbortSignal) {
    this.requests++;
    return this.client.page(part, cursor, { signal, gate: this.gate });
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private notify() {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
