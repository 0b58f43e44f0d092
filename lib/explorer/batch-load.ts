import type { Batch } from '../contract';
import { ApiFailure } from './api-failure';
import { readNdjson } from './ndjson';
import { mergeInCreationOrder, toRow, type Row } from './rows';

export type Range = { start_date?: string; end_date?: string };

/** What the page renders; a new object whenever something it shows changed. */
export type LoadSnapshot = {
  rows: readonly Row[];
  complete: boolean;
  /** Nothing has arrived yet. */
  loading: boolean;
  error: ApiFailure | null;
};

type StreamLine =
  | { batches: Batch[] }
  | { done: true; count: number }
  | { error: { status: number; detail: string; retryAfterS: number | null }; remaining: string };

/** How often the page hears about new rows: at once for the first, then calmer as the list grows. */
function notifyInterval(rows: number): number {
  return rows < 5_000 ? 200 : rows < 30_000 ? 300 : 600;
}

/**
 * Every batch of a range, streamed from `/api/batches/stream` into one growing list, each batch once.
 *
 * - Rows are kept in creation order by merging each batch of new rows in; subscribers get a fresh
 *   snapshot at most every few hundred ms (the first rows at once, the end at once), so sorting and charts
 *   do not run for every page.
 * - It loads while someone is subscribed: the last subscriber leaving pauses it, a new one resumes.
 * - A failure keeps every row; `resume()` asks only for the parts the server named as unfinished (or the
 *   whole range again when the connection broke), and rows already here are not added twice.
 */
export class BatchLoad {
  /** Rows published so far, in creation order; `added` waits for the next publish. */
  private ordered: Row[] = [];
  private added: Row[] = [];
  private ids = new Set<string>();
  private listeners = new Set<() => void>();
  private snapshot: LoadSnapshot = { rows: [], complete: false, loading: true, error: null };
  private complete = false;
  private error: ApiFailure | null = null;
  private remaining: string | null = null;
  private running: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pauseTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly range: Range,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = null;
    if (!this.running && !this.complete && !this.error) void this.run();
    return () => {
      this.listeners.delete(listener);
      // A short grace: React may unsubscribe and subscribe again at once (strict mode, re-renders).
      if (this.listeners.size === 0) this.pauseTimer = setTimeout(() => this.pause(), 1000);
    };
  };

  getSnapshot = () => this.snapshot;

  /** Starts before anyone subscribes (the page is still booting); pauses if nobody comes for it. */
  start() {
    if (this.running || this.complete) return;
    void this.run();
    if (this.listeners.size === 0) this.pauseTimer = setTimeout(() => this.pause(), 10_000);
  }

  /** Continue after a failure (or a pause), keeping every row already loaded. */
  resume = () => {
    if (this.running || this.complete) return;
    this.error = null;
    this.publish();
    void this.run();
  };

  private pause() {
    this.running?.abort();
    this.running = null;
  }

  private async run() {
    const abort = new AbortController();
    this.running = abort;
    const params = new URLSearchParams();
    if (this.range.start_date) params.set('start_date', this.range.start_date);
    if (this.range.end_date) params.set('end_date', this.range.end_date);
    if (this.remaining) params.set('parts', this.remaining);
    let ended = false;
    try {
      const response = await this.fetcher(`/api/batches/stream?${params}`, {
        signal: abort.signal,
        headers: { accept: 'text/x-ndjson' },
      });
      if (!response.ok || !response.body) throw await ApiFailure.of(response);
      const whole = await readNdjson(response.body, (value) => {
        const line = value as StreamLine;
        if ('batches' in line) this.add(line.batches);
        else if ('done' in line) ended = true;
        else if ('error' in line) {
          this.remaining = line.remaining || null;
          const { status, detail, retryAfterS } = line.error;
          throw new ApiFailure(status, detail, retryAfterS);
        }
      });
      if (!whole || !ended) throw new ApiFailure(0, 'The connection to the dashboard server broke off.', null);
      this.complete = true;
      this.remaining = null;
    } catch (error) {
      if (abort.signal.aborted) return;
      this.error =
        error instanceof ApiFailure ? error : new ApiFailure(0, 'The dashboard server could not be reached.', null);
    } finally {
      // A failure while reading (a bad line) must not leave the server streaming to nobody.
      if (!this.complete) abort.abort();
      if (this.running === abort) this.running = null;
    }
    this.publish();
  }

  private add(batches: Batch[]) {
    const first = this.ids.size === 0;
    for (const batch of batches) {
      if (this.ids.has(batch.batch_id)) continue;
      this.ids.add(batch.batch_id);
      this.added.push(toRow(batch));
    }
    if (first) this.publish();
    else this.timer ??= setTimeout(() => this.publish(), notifyInterval(this.ids.size));
  }

  private publish() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.added.length) {
      this.ordered = mergeInCreationOrder(this.ordered, this.added);
      this.added = [];
    }
    this.snapshot = {
      // A new array per snapshot (of the same row objects), so memoized views see the change.
      rows: this.ordered,
      complete: this.complete,
      loading: this.ordered.length === 0 && !this.complete && !this.error,
      error: this.error,
    };
    for (const listener of this.listeners) listener();
  }
}
