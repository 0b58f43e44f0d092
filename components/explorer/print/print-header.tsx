'use client';

import { useTranslations } from 'use-intl';
import type { Targets } from '@/lib/contract/targets';
import { drillChips } from '@/lib/explorer/drill';
import type { RangeDays } from '@/lib/explorer/range/rolling';
import { belowChoice } from '@/lib/explorer/targets/misses';
import { targetLines } from '@/lib/explorer/targets/target-lines';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { GROUPS } from '../analysis/analysis-bar';
import type { Column } from '../table/columns';
import type { RangeLabel } from '../range/use-range-label';
import type { CardComparison } from '../summary/use-comparison';
import { useSpeech } from '../shared/use-speech';
import styles from './print-report.module.css';

type Props = {
  organisation: string;
  state: ExplorerState;
  /** The days the range stands for now, and a rolling range's name (`Last 90 days`). */
  days: RangeDays;
  rangeLabel: RangeLabel | null;
  /** The search as typed (the URL's `q` follows it a moment later). */
  search: string;
  targets: Targets;
  /** The crops of the batches loaded: their targets are listed. */
  crops: readonly string[];
  targetsUnsaved: boolean;
  comparison: CardComparison | undefined;
  columns: readonly Column[];
  hiddenColumns: readonly Column[];
  madeAt: number;
};

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Text as a CSS string: quoted, control characters (line ends, form feed: they would end it) as spaces, quotes and backslashes escaped. */
function cssString(text: string): string {
  return `"${text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The report's head on paper: what it is, whose, which days in which zone, the filters, the targets every batch
 * was judged by, what it is compared with, and when it was made. The page's own controls stand for all of
 * this on screen, and are not printed.
 */
export function PrintHeader({
  organisation,
  state,
  days,
  rangeLabel,
  search,
  targets,
  crops,
  targetsUnsaved,
  comparison,
  columns,
  hiddenColumns,
  madeAt,
}: Props) {
  const t = useTranslations('print');
  const te = useTranslations('explorer');
  const say = useSpeech();
  const { f } = say;
  const zone = state.tz;
  // Calendar days, written as days (at their UTC midnight, read in UTC).
  const day = (d: string) => f.date(dayMs(d), 'UTC');
  const range = rangeLabel
    ? te('range.shows', { name: rangeLabel.name, days: rangeLabel.days })
    : days.from && days.to
      ? `${day(days.from)} – ${day(days.to)}`
      : days.from
        ? t('fromDay', { from: day(days.from) })
        : days.to
          ? t('toDay', { to: day(days.to) })
          : t('allTime');
  const made = zone === 'UTC' ? f.dateTime(madeAt, zone) : t('madeAt', { dateTime: f.dateTime(madeAt, zone), zone });

  const filters = [
    ...(search.trim() ? [t('search', { text: search.trim() })] : []),
    ...(state.warn ? [t('warningsOnly')] : []),
    ...(state.below ? [t('belowOnly', { kind: te(`filters.belowKinds.${belowChoice(state.below)}`) })] : []),
    ...drillChips(state, say).map((c) => c.label),
    ...(hiddenColumns.length
      ? [t('hiddenColumns', { columns: hiddenColumns.map((c) => te(`columns.${c.id}`)).join(', ') })]
      : []),
  ];
  const sorted = columns.find((c) => c.sort === state.sort);
  const sortColumn = sorted ? te(`columns.${sorted.id}`) : state.sort;
  const facts: [string, string | string[]][] = [
    [t('organisation'), organisation],
    [t('range'), range],
    [t('zone'), zone],
    [
      t('filters'),
      [
        ...(filters.length ? filters : [t('noFilters')]),
        t('sortedBy', { column: sortColumn, dir: t(state.dir === 'asc' ? 'ascending' : 'descending') }),
      ],
    ],
    [t('targets'), [...targetLines(targets, crops, t, f), ...(targetsUnsaved ? [t('targetsUnsaved')] : [])]],
    [t('metric'), say.t(`metrics.${state.metric}.label`)],
  ];
  if (comparison) facts.push([t('comparison'), comparison.kind === 'window' ? comparison.label : comparison.reason]);
  const group = GROUPS.find(([g]) => g === state.group);
  if (group) facts.push([t('grouping'), say.t(`bar.${group[1]}`)]);
  facts.push([t('made'), made]);

  return (
    <header className={`print-only print-part ${styles.head}`}>
      {/* The page margins' footer (print.css) reads these words: a margin box cannot read the page's text. */}
      <style>{`:root { --print-footer: ${cssString(t('footer', { organisation, made }))}; }`}</style>
      <h1 className={styles.title}>{t('title')}</h1>
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{Array.isArray(value) ? value.map((v) => <span key={v}>{v}</span>) : value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}
