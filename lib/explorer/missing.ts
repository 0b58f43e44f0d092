import type { DateRange } from '../contract';
import { formatDay, type Zone } from './date-range';

/** A span of creation instants in ms, both ends inclusive; an open end is ±Infinity. */
export type Span = { from: number; to: number };

const at = (date: string | undefined, open: number) => (date ? Date.parse(date) : open);

function merged(spans: Span[]): Span[] {
  spans.sort((a, b) => a.from - b.from);
  const out: Span[] = [];
  for (const s of spans) {
    const last = out.at(-1);
    if (last && s.from <= last.to + 1) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out;
}

/**
 * What of `range` has not arrived: nothing once complete; otherwise the parts the server last named as
 * pending (`start~end,...`, see lib/contract/parts.ts), or the whole range while it has named none.
 */
export function missingSpans(range: DateRange, complete: boolean, pending: string | null): Span[] {
  if (complete || pending === '') return [];
  if (pending === null) return [{ from: at(range.start_date, -Infinity), to: at(range.end_date, Infinity) }];
  const spans: Span[] = [];
  for (const pair of pending.split(',')) {
    const [start, end] = pair.split('~');
    spans.push({ from: at(start || range.start_date, -Infinity), to: at(end || range.end_date, Infinity) });
  }
  return merged(spans);
}

/** "12 Mar 2025 – 30 Jun 2025", by calendar days in the zone; open ends in words. */
export function describeSpan(span: Span, zone: Zone): string {
  const day = (ms: number) => formatDay(ms, zone);
  if (span.from === -Infinity && span.to === Infinity) return 'the whole range';
  if (span.from === -Infinity) return `everything up to ${day(span.to)}`;
  if (span.to === Infinity) return `everything from ${day(span.from)}`;
  const a = day(span.from), b = day(span.to);
  return a === b ? a : `${a} to ${b}`;
}

/** The missing spans as one phrase, at most `max` of them named. */
export function describeSpans(spans: readonly Span[], zone: Zone, max = 3): string {
  const named = spans.slice(0, max).map((s) => describeSpan(s, zone));
  const more = spans.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more span${more === 1 ? '' : 's'}` : named.join(', ');
}
