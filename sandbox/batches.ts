import type { URLSearchParams } from 'node:url';
import { lowerBoundMs, parseUtcDate, upperBoundMs } from '../lib/utc-date';
import type { CursorCodec } from './cursor';
import { HttpError } from './http';
import type { Organisation } from './organisations';

export type Range = { lower: number | null; upper: number | null; from: number; to: number };

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new HttpError(422, `${name}: given more than once`);
  return values[0];
}

function bound(params: URLSearchParams, name: 'start_date' | 'end_date'): number | null {
  const raw = single(params, name);
  if (raw === undefined) return null;
  const parsed = parseUtcDate(raw);
  if (!parsed.ok) throw new HttpError(422, `${name}: ${JSON.stringify(raw)} ${parsed.reason}`);
  return name === 'start_date' ? lowerBoundMs(parsed.instant) : upperBoundMs(parsed.instant);
}

/** First index whose time is >= ms. */
function firstAtOrAfter(times: Float64Array, ms: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inclusive filters on batch_creation_date, both optional (docs/batch-data-service.md#dates). */
export function resolveRange(org: Organisation, params: URLSearchParams): Range {
  const lower = bound(params, 'start_date');
  const upper = bound(params, 'end_date');
  const from = lower === null ? 0 : firstAtOrAfter(org.times, lower);
  const to = upper === null ? org.times.length : firstAtOrAfter(org.times, upper + 1);
  // start_date after end_date is not an error in the contract: the sandbox answers an empty range.
  return { lower, upper, from, to: Math.max(to, from) };
}

/** Index of the first batch after the cursor's (time, id) position. */
function positionAfter(org: Organisation, afterMs: number, afterId: string): number {
  let i = firstAtOrAfter(org.times, afterMs);
  while (i < org.times.length && org.times[i] === afterMs && org.batches[i]!.batch_id <= afterId) i++;
  return i;
}

export function pageOf(
  org: Organisation,
  params: URLSearchParams,
  pageSize: number,
  cursors: CursorCodec,
): { body: string; count: number } {
  const range = resolveRange(org, params);
  let start = range.from;
  const token = single(params, 'next_token');
  if (token !== undefined) {
    const state = cursors.decode(token);
    if (!state || state.orgId !== org.id) throw new HttpError(422, 'next_token: not a valid cursor for this client');
    if (state.lower !== range.lower || state.upper !== range.upper) {
      throw new HttpError(422, 'next_token: was issued for different start_date/end_date filters');
    }
    start = Math.max(range.from, positionAfter(org, state.afterMs, state.afterId));
  }
  const end = Math.min(range.to, start + pageSize);
  const last = org.batches[end - 1];
  const next =
    end < range.to && last
      ? cursors.encode({
          orgId: org.id,
          lower: range.lower,
          upper: range.upper,
          afterMs: org.times[end - 1]!,
          afterId: last.batch_id,
        })
      : null;
  const data = org.jsonOf(start, end).join(',');
  return { body: `{"data":[${data}],"next_token":${JSON.stringify(next)}}`, count: end - start };
}
