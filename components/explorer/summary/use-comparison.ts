'use client';

import { useDeferredValue, useMemo } from 'react';
import { useTranslations } from 'use-intl';
import { comparisonFilter, comparisonWindow, describeWindow } from '@/lib/explorer/compare';
import { filterRows, summarize, type Row, type RowFilter, type Summary } from '@/lib/explorer/rows';
import type { RangeDays } from '@/lib/explorer/range/rolling';
import type { ExplorerState } from '@/lib/explorer/url-state';
import type { AnalysisInput } from '../analysis/analysis';
import { useRangeRows } from '../range/range-query';
import { useSpeech } from '../shared/use-speech';

/** Each comparison's name in `analysis.comparison`. */
const KINDS = { previous: 'previous', 'last-year': 'lastYear' } as const;

/** What the summary cards say about the comparison. */
export type CardComparison =
  | { kind: 'unavailable'; reason: string }
  | {
      kind: 'window';
      /** `17–23 Mar 2025 (previous period)` */
      label: string;
      /** Null until every batch of both windows has arrived: no change is shown from part of the data. */
      summary: Summary | null;
      loading: boolean;
      stopped: boolean;
      loaded: number;
      onRetry: () => void;
    };

/**
 * The period the URL's Compare with names, for the days the range stands for now (a rolling range's too), loaded through the same stream as the range (a second query, so
 * it is cached and resumed alike), narrowed by the same filter (comparisonFilter) and summarized the same way.
 */
export function useComparison(
  { compare, tz }: Pick<ExplorerState, 'compare' | 'tz'>,
  { from, to }: RangeDays,
  filterNow: RowFilter,
  enabled: boolean,
  currentComplete: boolean,
) {
  const say = useSpeech();
  const t = useTranslations('analysis.comparison');
  // "Now" is read when the range or the comparison changes, not per render: the comparison's end (and so its
  // query) must stay put while someone looks at it.
  const span = useMemo(
    // eslint-disable-next-line react-hooks/purity -- read once per change of these inputs, on purpose
    () => (compare ? comparisonWindow(compare, from, to, tz, Date.now()) : null),
    [compare, from, to, tz],
  );
  const query = useRangeRows(span?.range ?? null, enabled);
  const filter = useDeferredValue(filterNow);
  const rows = useMemo<readonly Row[]>(() => {
    if (!span) return [];
    return filterRows(query.rows, comparisonFilter(filter, span.shiftMs));
  }, [span, query.rows, filter]);
  const summary = useMemo(() => summarize(rows, filter.targets), [rows, filter.targets]);

  const label = span && compare ? t('label', { period: describeWindow(span, tz, say), kind: t(KINDS[compare]) }) : '';
  const allTime = t('allTime');
  const cards = useMemo<CardComparison | undefined>(() => {
    if (!compare) return undefined;
    if (!span) return { kind: 'unavailable', reason: allTime };
    return {
      kind: 'window',
      label,
      summary: query.complete && currentComplete ? summary : null,
      loading: !query.complete && query.error === null,
      stopped: query.error !== null,
      loaded: query.rows.length,
      onRetry: query.retry,
    };
  }, [
    compare,
    span,
    allTime,
    label,
    query.complete,
    query.error,
    query.rows.length,
    query.retry,
    currentComplete,
    summary,
  ]);
  const chart = useMemo<AnalysisInput['comparison']>(
    () => (span ? { rows, shiftMs: span.shiftMs, label, complete: query.complete } : undefined),
    [span, rows, label, query.complete],
  );
  return { cards, chart };
}
