import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUtcDate, lowerBoundMs, parseUtcDate, upperBoundMs } from '@/lib/utc-date';
import { splitPart } from '@/lib/batch-api/range-parts';

const MIN = Date.UTC(1, 0, 1);
const MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const instant = fc.integer({ min: MIN, max: MAX });
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The same instant written every way the service accepts: Z or +00:00, seconds optional, 0-9 fraction digits. */
function spellings(ms: number, extraDigits: string): string[] {
  const d = new Date(ms);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const hm = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  const s = pad(d.getUTCSeconds());
  const frac = pad(d.getUTCMilliseconds(), 3);
  const out = [`${date}T${hm}:${s}.${frac}${extraDigits}Z`, `${date}T${hm}:${s}.${frac}${extraDigits}+00:00`];
  if (frac === '000' && extraDigits === '') out.push(`${date}T${hm}:${s}Z`, `${date}T${hm}:${s}+00:00`);
  if (frac === '000' && extraDigits === '' && s === '00') out.push(`${date}T${hm}Z`);
  return out;
}

describe('date rules, for any input', () => {
  it('never throws, and whatever it accepts is a UTC datetime', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'grapheme' }),
          fc.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,12})?)?(Z|[+-]\d{2}:?\d{2})?$/),
        ),
        (text) => {
          const result = parseUtcDate(text);
          if (result.ok) {
            expect(text).toMatch(/(Z|\+00:00)$/);
            expect(Number.isInteger(result.instant.ms)).toBe(true);
          } else {
            expect(result.reason.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads every accepted spelling of an instant as that instant; sub-millisecond digits only move the lower bound', () => {
    fc.assert(
      fc.property(instant, fc.stringMatching(/^\d{0,6}$/), (ms, extra) => {
        for (const text of spellings(ms, extra)) {
          const result = parseUtcDate(text);
          expect(result.ok, text).toBe(true);
          if (!result.ok) return;
          expect(result.instant.ms).toBe(ms);
          expect(upperBoundMs(result.instant)).toBe(ms);
          expect(lowerBoundMs(result.instant)).toBe(/[1-9]/.test(extra) ? ms + 1 : ms);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips through formatUtcDate and agrees with Date.parse', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        const text = formatUtcDate(ms);
        const result = parseUtcDate(text);
        expect(result.ok && result.instant.ms).toBe(ms);
        if (ms >= 0) expect(Date.parse(text)).toBe(ms);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses any offset but Z and +00:00, and a missing zone', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -23, max: 23 }), fc.integer({ min: 0, max: 59 }), (ms, h, m) => {
        fc.pre(!(h === 0 && m === 0));
        const base = new Date(ms)
          .toISOString()
          .replace(/^\+0*(\d{4})/, '$1')
          .slice(0, -1);
        if (!/^\d{4}-/.test(base)) return;
        const sign = h < 0 ? '-' : '+';
        expect(parseUtcDate(`${base}${sign}${pad(Math.abs(h))}:${pad(m)}`).ok).toBe(false);
        expect(parseUtcDate(base).ok).toBe(false);
        expect(parseUtcDate(`${base}-00:00`).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('range parts, for any range', () => {
  const ms = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) });
  it('cover the range exactly: contiguous, sharing each boundary, open ends kept open', () => {
    fc.assert(
      fc.property(
        ms,
        ms,
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        fc.boolean(),
        (a, b, count, openStart, openEnd) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const part = {
            ...(openStart ? {} : { start_date: formatUtcDate(lo) }),
            ...(openEnd ? {} : { end_date: formatUtcDate(hi) }),
          };
          const parts = splitPart(part, count, { lo, hi });
          // Plain checks, one report per run (an expect per part made this property the slowest test here).
          const problems: string[] = [];
          if (parts.length < 1 || parts.length > Math.max(1, count))
            problems.push(`${parts.length} parts for count ${count}`);
          if (parts[0]!.start_date !== part.start_date) problems.push('the first part does not keep the start');
          if (parts.at(-1)!.end_date !== part.end_date) problems.push('the last part does not keep the end');
          for (let i = 1; i < parts.length; i++) {
            const start = parts[i]!.start_date;
            if (start !== parts[i - 1]!.end_date) problems.push(`part ${i} does not start where part ${i - 1} ends`);
            const at = Date.parse(start!);
            if (!(at > lo && at < hi)) problems.push(`cut ${start} is not strictly inside the range`);
          }
          expect(problems).toEqual([]);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
