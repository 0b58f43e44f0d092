import { withOrg } from '../org-param';
import { BrokenStreamLine, parseStreamLine, rangeParams, type Batch, type DateRange } from '../contract';
import { ApiFailure } from './api-failure';
import { readNdjson } from './ndjson';
import { mergeInCreationOrder, rowMaker, type Row } from './rows';

/** Every batch of a range loaded so far: what the page renders, and what a retry continues from. */
export type RangeData = {
  /** In creation order, each batch once. */
  rows: readonly Row[];
  complete: boolean;
  /** The parts a retry fetches, as the server last named them before an interruption; null: the whole range. */
  remaining: string | null;
  /**
   * The parts not loaded yet, as the server last named them (while loading, or after an interruption);
   * null: not known yet, the whole range. What the page names as missing.
   */
  pending: string | null;
};

export type LoadOptions = {
  /** Rows already here (a retry after an error, a load resumed after a pause): kept, never added twice. */
  from?: RangeData;
  signal?: AbortSignal;
  /** Told what to show: the first rows at once, then at most every few hundred ms, and the end at once. */
  publish: (data: RangeData) => void;
  fetch?: typeof fetch;
  /** Told each batch as received, once (the browser's cache of ranges keeps them as the stream gave them). */
  onBatches?: (batches: Batch[]) => void;
};

/** How often the page hears about new rows: at once for the first, then calmer as the list grows. */
function publishInterval(rows: number): number {
  return rows < 5_000 ? 200 : rows < 30_000 ? 300 : 600;
}

/**
 * Streams every batch of `range` from `/api/batches/stream` into one list in creation order, each batch once.
 *
 * - Resolves with the complete range. On any failure it first publishes every row it has, with the parts
 *   the server named as unfinished (in its error line, or in the last line that arrived when the connection
 *   broke), then throws an ApiFailure: a retry with `from` asks only for those parts, and no row is added twice.
 * - An abort (nobody watches any more) publishes what has arrived and throws the abort reason.
 * - Rows are merged in a batch at a time (O(n + k log k)), so sorting and charts do not run for every page.
 */
export async function loadRange(range: DateRange, options: LoadOptions): Promise<RangeData> {
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  let ordered: readonly Row[] = options.from?.rows ?? [];
  let remaining = options.from?.remaining ?? null;
  let pending = options.from?.pending ?? remaining;
  const ids = new Set(ordered.map((r) => r.id));
  const toRow = rowMaker(ordered);
  let added: Row[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const publish = (complete: boolean) => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (added.length) {
      ordered = mergeInCreationOrder(ordered, added);
      added = [];
    }
    options.publish({
      rows: ordered,
      complete,
      remaining: complete ? null : remaining,
      pending: complete ? '' : pending,
    });
  };
  const add = (batches: Batch[]) => {
    const first = ids.size === 0;
    const received: Batch[] | null = options.onBatches ? [] : null;
    for (const batch of batches) {
      if (ids.has(batch.batch_id)) continue;
      ids.add(batch.batch_id);
      added.push(toRow(batch));
      received?.push(batch);
    }
    if (received?.length) options.onBatches!(received);
    if (first) publish(false);
    else timer ??= setTimeout(() => publish(false), publishInterval(ids.size));
  };

  // A retry shows at once that it is under way (and clears the error it follows).
  if (options.from) publish(false);
  const abort = new AbortController();
  const stop = () => abort.abort(options.signal!.reason);
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  const params = rangeParams(range);
  if (remaining) params.set('parts', remaining);
  let ended = false;
  /** The server ended the stream with an error line (naming what is left), rather than the connection breaking. */
  let toldWhy = false;
  try {
    let response: Response;
    try {
      response = await fetcher(withOrg(`/api/batches/stream?${params}`), {
        signal: abort.signal,
        headers: { accept: 'text/x-ndjson' },
      });
    } catch (error) {
      throw abort.signal.aborted ? error : ApiFailure.client('unreachable');
    }
    if (!response.ok || !response.body) throw await ApiFailure.of(response);
    const whole = await readNdjson(response.body, (text) => {
      const line = parseStreamLine(text);
      if ('batches' in line) {
        if (line.pending !== undefined) pending = line.pending;
        add(line.batches);
      } else if ('done' in line) ended = true;
      else {
        remaining = line.remaining || null;
        pending = remaining;
        toldWhy = true;
        throw new ApiFailure(line.error.status, line.error.detail, line.error.retryAfterS);
      }
    });
    if (!whole || !ended) throw ApiFailure.client('brokeOff');
    publish(true);
    return { rows: ordered, complete: true, remaining: null, pending: '' };
  } catch (error) {
    // Broken off without the server's word: the last line that arrived named every part not yet given out
    // in full, so a retry fetches only those (what arrives again is not added twice). Before any line, or
    // with nothing named (only the end line lost), what is missing is not known: the whole range again.
    if (!toldWhy) remaining = pending || null;
    if (!toldWhy) pending = remaining;
    publish(false);
    if (abort.signal.aborted) throw options.signal?.reason ?? error;
    if (error instanceof ApiFailure) throw error;
    if (error instanceof BrokenStreamLine) throw ApiFailure.client('unreadableLine');
    throw ApiFailure.client('brokeOff');
  } finally {
    options.signal?.removeEventListener('abort', stop);
    // A failure while reading (a bad line) must not leave the server streaming to nobody.
    abort.abort();
  }
}
