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

/** How spans are said in one language: the words around the days, and the days themselves. */
export type SpanWords = {
  day: (ms: number, zone: Zone) => string;
  whole: string;
  upTo: (day: string) => string;
  from: (day: string) => string;
  between: (from: string, to: string) => string;
  /** The named spans, joined, and how many more there are (at least one). */
  more: (named: string, more: number) => string;
};

/**
 * Span words from a language's messages (`explorer.spans`): `say` is their translator, `count` writes a
 * number, `day` a calendar day.
 */
export function spanWordsOf(
  say: (key: 'whole' | 'upTo' | 'from' | 'between' | 'more', values?: Record<string, string | number>) => string,
  count: (n: number) => string,
  day: SpanWords['day'],
): SpanWords {
  return {
    day,
    whole: say('whole'),
    upTo: (d) => say('upTo', { day: d }),
    from: (d) => say('from', { day: d }),
    between: (from, to) => say('between', { from, to }),
    more: (list, n) => say('more', { list, n, count: count(n) }),
  };
}

/** English with ISO days: the export's first line (and the words the explorer's English shows). */
export const ENGLISH_SPAN_WORDS: SpanWords = {
  day: formatDay,
  whole: 'the whole range',
  upTo: (day) => `everything up to ${day}`,
  from: (day) => `everything from ${day}`,
  between: (from, to) => `${from} to ${to}`,
  more: (named, more) => `${named} and ${more} more span${more === 1 ? '' : 's'}`,
};

/** "2025-03-12 to 2025-06-30", by calendar days in the zone; open ends in words. */
export function describeSpan(span: Span, zone: Zone, words: SpanWords = ENGLISH_SPAN_WORDS): string {
  const day = (ms: number) => words.day(ms, zone);
  if (span.from === -Infinity && span.to === Infinity) return words.whole;
  if (span.from === -Infinity) return words.upTo(day(span.to));
  if (span.to === Infinity) return words.from(day(span.from));
  const a = day(span.from),
    b = day(span.to);
  return a === b ? a : words.between(a, b);
}

/** The missing spans as one phrase, at most `max` of them named. */
export function describeSpans(
  spans: readonly Span[],
  zone: Zone,
  max = 3,
  words: SpanWords = ENGLISH_SPAN_WORDS,
): string {
  const named = spans.slice(0, max).map((s) => describeSpan(s, zone, words));
  const more = spans.length - named.length;
  return more > 0 ? words.more(named.join(', '), more) : named.join(', ');
}
