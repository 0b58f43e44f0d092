/**
 * Numbers, percentages, dates and times written in the reader's locale (`93,4 %` and `21.11.2026` in
 * `de-DE`, `93.4%` and `Nov 21, 2026` in `en-US`). One set of formatters per locale, made once: the table
 * formats thousands of cells per scroll.
 */

/** What an empty value shows as, in every locale. */
export const DASH = '—';

type Num = number | string | null;
type Zone = string;

export type Formats = {
  locale: string;
  /** The locale's decimal mark (`,` in `de-DE`), for inputs and CSV. */
  decimalMark: string;
  /** `12,345` */
  count: (n: number) => string;
  /** `12,345`, or the dash for no value. */
  int: (v: number | null) => string;
  /** Exactly `digits` decimals (1 unless told): `12.3`. */
  decimal: (v: Num, digits?: number) => string;
  /** Up to `digits` decimals (2 unless told), none when whole: `12.25`, `12`. */
  number: (v: number, digits?: number) => string;
  /** A value in percent written with one decimal (unless told) and the locale's sign: `93.4%`, `93,4 %`. */
  percent: (v: Num, digits?: number) => string;
  /** A percent with up to `digits` decimals (2 unless told), none when whole, as `percent` writes it: `72.5%`, `70 %`. */
  percentUpTo: (v: number, digits?: number) => string;
  /** Two percents as one span, the sign once: `70–72.5%`, `70–72,5 %`. */
  percentRange: (lo: number, hi: number) => string;
  /** A difference with one decimal, always signed (`+1.2`, `−0.8`); its unit (pp) comes from the messages. */
  signed: (v: number) => string;
  /** A relative change in percent, always signed: `+12%`. */
  change: (v: number) => string;
  /** `12.3 mm²` */
  area: (v: Num) => string;
  /** Date and time in `zone`: `21 Nov 2026, 14:05` (`en-GB`), `21.11.2026, 14:05` (`de-DE`); `UTC` named. */
  dateTime: (ms: number, zone: Zone) => string;
  /** The date in `zone`: `21 Nov 2026`, `21.11.2026`. */
  date: (ms: number, zone: Zone) => string;
  /** Day and month, for axes: `21 Nov`, `21. Nov.` */
  dayMonth: (ms: number, zone: Zone) => string;
  /** Month and year, for axes and monthly buckets: `Nov 2026`. */
  monthYear: (ms: number, zone: Zone, long?: boolean) => string;
  /** The time of day in `zone`: `14:05`, `2:05 PM`. */
  time: (ms: number, zone: Zone) => string;
  /** Two dates as one span, what they share written once: `17–23 Mar 2025`, `17.–23.03.2025`. */
  dateRange: (from: number, to: number, zone: Zone) => string;
  /** A date for axes, its year written out (a two-digit year reads as a day: `Nov 28, 24`): `Nov 28, 2024`, `28. Nov. 2024`. */
  shortDate: (ms: number, zone: Zone) => string;
  /** A number typed in this locale (`93,4` or `93.4`); null when it is not one. */
  parseNumber: (text: string) => number | null;
};

const MINUS = '\u2212';

function cached<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    let v = made.get(key);
    if (v === undefined) made.set(key, (v = make(key)));
    return v;
  };
}

function makeFormats(locale: string): Formats {
  const fixed = cached(
    (digits: number) => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  );
  const upTo = cached((digits: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits }));
  // The unit style writes the value as given (93.45 stays 93.45 before rounding): dividing by 100 for the percent
  // style would round a tie such as 1.15 from 0.011499999999999999.
  const percentOf = cached(
    (digits: number) =>
      new Intl.NumberFormat(locale, {
        style: 'unit',
        unit: 'percent',
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }),
  );
  const percentUpTo = cached(
    (digits: number) =>
      new Intl.NumberFormat(locale, { style: 'unit', unit: 'percent', maximumFractionDigits: digits }),
  );
  const signed = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: 'always',
  });
  const signedPercent = new Intl.NumberFormat(locale, {
    style: 'percent',
    maximumFractionDigits: 1,
    signDisplay: 'always',
  });
  const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const decimalMark = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  // The locale's own digits (Arabic-Indic, Persian, Devanagari, …) read as 0–9: inputs show and accept them.
  const plain = new Intl.NumberFormat(locale, { useGrouping: false });
  const digits = new Map(Array.from({ length: 10 }, (_, d) => [plain.format(d), String(d)]));
  const inZone = (options: Intl.DateTimeFormatOptions) =>
    cached((zone: Zone) => new Intl.DateTimeFormat(locale, { ...options, timeZone: zone }));
  const dateTimeIn = inZone({ dateStyle: 'medium', timeStyle: 'short' });
  const dateIn = inZone({ dateStyle: 'medium' });
  const dayMonthIn = inZone({ day: 'numeric', month: 'short' });
  const monthYearIn = inZone({ month: 'short', year: 'numeric' });
  const longMonthIn = inZone({ month: 'long', year: 'numeric' });
  const timeIn = inZone({ timeStyle: 'short' });
  const shortDateIn = inZone({ day: 'numeric', month: 'short', year: 'numeric' });
  const minus = (s: string) => s.replace('-', MINUS);
  const given = (v: Num): v is number | string => v !== null && v !== '' && Number.isFinite(Number(v));

  return {
    locale,
    decimalMark,
    count: (n) => integer.format(n),
    int: (v) => (v === null ? DASH : integer.format(v)),
    decimal: (v, digits = 1) => (given(v) ? fixed(digits).format(Number(v)) : DASH),
    number: (v, digits = 2) => upTo(digits).format(v),
    percent: (v, digits = 1) => (given(v) ? percentOf(digits).format(Number(v)) : DASH),
    percentUpTo: (v, digits = 2) => percentUpTo(digits).format(v),
    percentRange: (lo, hi) => percentUpTo(2).formatRange(lo, hi),
    signed: (v) => minus(signed.format(v)),
    change: (v) => minus(signedPercent.format(v / 100)),
    area: (v) => (given(v) ? `${fixed(1).format(Number(v))} mm²` : DASH),
    dateTime: (ms, zone) => dateTimeIn(zone).format(ms) + (zone === 'UTC' ? ' UTC' : ''),
    date: (ms, zone) => dateIn(zone).format(ms),
    dayMonth: (ms, zone) => dayMonthIn(zone).format(ms),
    monthYear: (ms, zone, long = false) => (long ? longMonthIn : monthYearIn)(zone).format(ms),
    time: (ms, zone) => timeIn(zone).format(ms),
    dateRange: (from, to, zone) => dateIn(zone).formatRange(from, to),
    shortDate: (ms, zone) => shortDateIn(zone).format(ms),
    parseNumber: (text) => {
      const t = [...text.trim()]
        .map((c) => digits.get(c) ?? c)
        .join('')
        .replace(decimalMark, '.');
      return /^[-\u2212]?\d+(\.\d+)?$|^[-\u2212]?\.\d+$/.test(t) ? Number(t.replace(MINUS, '-')) : null;
    },
  };
}

/** The formatters of `locale` (an unknown or malformed tag falls back to English). */
export const formatsFor = cached((locale: string): Formats => {
  try {
    return makeFormats(Intl.getCanonicalLocales(locale)[0] ?? 'en');
  } catch {
    return makeFormats('en');
  }
});
