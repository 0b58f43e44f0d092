import 'server-only';
import { missLookup, MISS_KINDS } from '../../explorer/targets/misses';
import type { Row } from '../../explorer/rows';
import { readerLocale } from '../../i18n/languages';
import { reportTranslator } from './report-translator';
import type { ReportWords, ViewBatches } from './view-report';

/** A summary card as a report shows it: its label, its figure, and under it the count per kind where there is one. */
export type ReportCard = { label: string; value: string; parts?: string };

/** The period a report covers, in the reader's notation: `21 – 27 Nov 2026`, or all time. */
export function periodText(view: Pick<ViewBatches, 'days'>, w: ReportWords, allTime: string): string {
  const { from, to } = view.days;
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
  if (from === undefined && to === undefined) return allTime;
  if (from === undefined) return `… – ${w.say.f.date(day(to!), 'UTC')}`;
  if (to === undefined) return `${w.say.f.date(day(from), 'UTC')} – …`;
  return from === to ? w.say.f.date(day(from), 'UTC') : w.say.f.dateRange(day(from), day(to), 'UTC');
}

/**
 * The page's summary cards in the words of `w`: batches, weighted germination and usable seedlings, and below
 * target (the share of the batches judged, the count per kind under it), as the e-mail and the PDF show them.
 */
export function summaryCards(view: Pick<ViewBatches, 'summary'>, w: ReportWords): ReportCard[] {
  const te = reportTranslator(readerLocale(null, w.language), 'explorer');
  const { f } = w.say;
  const s = view.summary;
  const kinds = MISS_KINDS.filter((k) => s.judgedBy[k] > 0);
  const parts = kinds
    .map((k) => te('summary.belowCount', { kind: te(`targetKinds.${k}`), count: f.count(s.belowBy[k]) }))
    .join(' · ');
  return [
    { label: te('summary.batches'), value: f.count(s.count) },
    { label: te('summary.germination'), value: f.percent(s.germination) },
    { label: te('summary.usable'), value: f.percent(s.usable) },
    {
      label: te('summary.below'),
      value: s.belowShare === null ? f.count(s.below) : `${f.count(s.below)} (${f.percent(s.belowShare * 100)})`,
      parts: parts || undefined,
    },
  ];
}

/** The view's batches that miss any of their targets, in the view's order. */
export function rowsBelowTarget(view: Pick<ViewBatches, 'rows' | 'targets'>): Row[] {
  const misses = missLookup(view.targets);
  return view.rows.filter((r) => (misses(r) & 7) !== 0);
}
