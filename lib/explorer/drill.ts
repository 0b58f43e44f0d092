import type { Bucket } from './aggregate';
import { daysToMs, parseDay } from './date-range';
import type { Formats } from '../i18n/formats';
import { describeBin, inBin, METRIC_INFO, METRICS, type Metric } from './metrics';
import { NO_CROP, type Row } from './row';
import type { AnalysisT, Speech } from './speech';

/*
 * Drill-downs: what a click on a chart's mark (or a grouped summary's row) adds to the filters. Each lives in
 * the URL, so back/forward undo it and a link carries it, and each shows as a removable chip.
 *   bins=germination:70:72.5;cv:10:15   batches whose metric lies in the bin (see inBin); several metrics: all
 *   days=2026-05-04..2026-05-10         batches created on those days, in the URL's zone (a time bucket)
 *   scanner=a.jansen@example.com        batches scanned by that person ((none): no e-mail recorded)
 */

export type BinDrill = { metric: Metric; lo: number; hi: number };
export type DaysDrill = { from: string; to: string };

/** The key of batches with no scanner recorded, in `scanner=` and in grouped summaries. */
export const NO_SCANNER = '(none)';
export const scannerLabel = (key: string, t: AnalysisT) => (key === NO_SCANNER ? t('noScanner') : key);
/** A crop key as the analysis names it (the crop's own name, or that none was recorded). */
export const cropName = (key: string, t: AnalysisT) => (key === NO_CROP ? t('noCrop') : key);

const BIN = /^([a-z]+):(-?\d+(?:\.\d+)?):(-?\d+(?:\.\d+)?)$/;

/** Reads `bins=`; entries that are not a known metric with lo < hi are dropped, not guessed at. */
export function parseBins(text: string | undefined): BinDrill[] {
  if (!text) return [];
  const out: BinDrill[] = [];
  for (const part of text.split(';')) {
    const m = BIN.exec(part);
    if (!m || !(METRICS as readonly string[]).includes(m[1]!)) continue;
    const lo = Number(m[2]),
      hi = Number(m[3]);
    if (lo < hi && !out.some((b) => b.metric === m[1])) out.push({ metric: m[1] as Metric, lo, hi });
  }
  return out;
}

const num = (v: number) => String(Math.round(v * 1e6) / 1e6);

export function formatBins(bins: readonly BinDrill[]): string | undefined {
  return bins.length ? bins.map((b) => `${b.metric}:${num(b.lo)}:${num(b.hi)}`).join(';') : undefined;
}

/** `bins` with the bin of `next.metric` replaced by `next` (one bin per metric). */
export function withBin(bins: readonly BinDrill[], next: BinDrill): BinDrill[] {
  return [...bins.filter((b) => b.metric !== next.metric), next];
}

/** Reads `days=from..to` (or a single day); null when it is not two real days in order. */
export function parseDays(text: string | undefined): DaysDrill | null {
  if (!text) return null;
  const [from = '', to = from, extra] = text.split('..');
  if (extra !== undefined || !parseDay(from) || !parseDay(to) || from > to) return null;
  return { from, to };
}

export function formatDays(days: DaysDrill): string {
  return days.from === days.to ? days.from : `${days.from}..${days.to}`;
}

// Days are calendar days: written as the UTC instant of their midnight, in UTC.
const dayOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** `4 May 2026`, `4–10 May 2026` (`04.05.2026`, `04.–10.05.2026` in German): the days of a time bucket as a chip names them. */
export function describeDays(days: DaysDrill, f: Formats): string {
  return days.from === days.to ? f.date(dayOf(days.from), 'UTC') : f.dateRange(dayOf(days.from), dayOf(days.to), 'UTC');
}

/** A day, week or month bucket as people name it: `4 May 2026`, `Week of 4 May 2026`, `May 2026`. */
export function describeBucket(days: DaysDrill, bucket: Bucket, { f, t }: Speech): string {
  if (bucket === 'month') return f.monthYear(dayOf(days.from), 'UTC', true);
  const first = f.date(dayOf(days.from), 'UTC');
  return bucket === 'week' ? t('weekOf', { day: first }) : first;
}

/** The row filter of the drill-downs: bins, an instant span (the days in the zone), a scanner. */
export type RowDrill = {
  bins: readonly BinDrill[];
  within: { from: number; to: number } | null;
  scanner: string | undefined;
};

export const NO_DRILL: RowDrill = { bins: [], within: null, scanner: undefined };

/** The drill-downs of the URL as a row filter: bins, the days of a bucket (in the view's zone), a scanner. */
export function rowDrillOf(state: { bins?: string; days?: string; scanner?: string; tz: string }): RowDrill {
  const days = parseDays(state.days);
  return {
    bins: parseBins(state.bins),
    within: days ? daysToMs(days.from, days.to, state.tz) : null,
    scanner: state.scanner,
  };
}

export function isDrilled(d: RowDrill): boolean {
  return d.bins.length > 0 || d.within !== null || d.scanner !== undefined;
}

export function passesDrill(r: Row, d: RowDrill): boolean {
  for (const b of d.bins) if (!inBin(b.metric, METRIC_INFO[b.metric].value(r), b.lo, b.hi)) return false;
  if (d.within && !(r.time >= d.within.from && r.time < d.within.to)) return false;
  if (d.scanner !== undefined && (r.scanner ?? NO_SCANNER) !== d.scanner) return false;
  return true;
}

export type Chip = { key: string; label: string };

/** The chips of the drill-downs in the URL (and the crop filter), in the order a person reads them. */
export function drillChips(
  state: { crop?: string; bins?: string; days?: string; scanner?: string },
  say: Speech,
): Chip[] {
  const { f, t } = say;
  const chips: Chip[] = [];
  if (state.crop !== undefined) chips.push({ key: 'crop', label: t('chips.crop', { crop: cropName(state.crop, t) }) });
  const days = parseDays(state.days);
  if (days) chips.push({ key: 'days', label: describeDays(days, f) });
  for (const b of parseBins(state.bins))
    chips.push({ key: `bin:${b.metric}`, label: describeBin(b.metric, b.lo, b.hi, say) });
  if (state.scanner !== undefined)
    chips.push({ key: 'scanner', label: t('chips.scanner', { scanner: scannerLabel(state.scanner, t) }) });
  return chips;
}
