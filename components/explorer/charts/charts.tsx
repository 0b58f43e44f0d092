'use client';

import { memo, useEffect, useMemo, useState } from 'react';
import { useTranslations } from 'use-intl';
import {
  histogram,
  histogramsPerCrop,
  overTime,
  perCrop,
  type Histogram,
  type CropHistogram,
} from '@/lib/explorer/aggregate';
import type { Targets } from '@/lib/contract';
import type { Row } from '@/lib/explorer/rows';
import { parseBins } from '@/lib/explorer/drill';
import { METRIC_INFO, METRICS, metricTarget, type Metric } from '@/lib/explorer/metrics';
import { cachedFor, keyOf } from '@/lib/explorer/row-cache';
import { eachWhenIdle } from '../shared/idle';
import { cropOfKey, shiftedRow } from '@/lib/explorer/rows';
import type { AnalysisInput } from '../analysis/analysis';
import CropsCompared from './chart-crops';
import Distribution from './chart-distribution';
import OverTime from './chart-over-time';
import SizeDistributions from './size-distributions';
import { IncompleteNote } from '../range/incomplete-note';
import { usePrinting } from '../print/printing';
import styles from '../view/explorer.module.css';

type Props = { input: AnalysisInput };

const CHART_COUNT = 3;

/**
 * The distribution of a metric: one histogram over all crops where crops share a scale and targets (rates, CV),
 * a histogram per crop on its own axis where they do not (median seedling size).
 */
function distributionOf(rows: readonly Row[], metric: Metric, targets: Targets): Histogram | CropHistogram[] {
  return cachedFor(rows, `hist|${metric}|${keyOf(targets)}`, () =>
    METRIC_INFO[metric].better === null ? histogramsPerCrop(rows, metric, targets) : histogram(rows, metric, targets),
  );
}

/**
 * The metric over time (a panel per crop, or chosen crops in one chart), its distribution, and crops side by
 * side, each batch judged by its own crop's target. Each aggregation is computed once per change of its rows,
 * metric or targets (not per chart render); each chart is drawn from the rows without its own drill-down, so
 * a drilled chart keeps its context with the chosen mark outlined. While batches are missing, each chart
 * says so. The first time, the charts are drawn one per task (a chart's first drawing is the costliest).
 */
function Charts({ input }: Props) {
  const { cross, zone, targets, completeness, drill, metric, colours, view, window } = input;
  const t = useTranslations('analysis');
  const [staged, setDrawn] = useState(1);
  // A print draws them all at once.
  const printing = usePrinting();
  const drawn = printing ? CHART_COUNT : staged;
  useEffect(() => {
    if (staged >= CHART_COUNT) return;
    const timer = setTimeout(() => setDrawn((n) => n + 1), 0);
    return () => clearTimeout(timer);
  }, [staged]);
  const { missing } = completeness;
  const incomplete = missing.length > 0;
  const windowKey = window ? `${window.from}-${window.to}` : 'all';
  const series = useMemo(
    () =>
      missing.length
        ? overTime(cross.allDays, metric, zone, window, missing)
        : cachedFor(cross.allDays, `time|${metric}|${zone}|${windowKey}`, () =>
            overTime(cross.allDays, metric, zone, window),
          ),
    [cross.allDays, metric, zone, window, windowKey, missing],
  );
  // The comparison period, moved onto this range's buckets (shiftMs aligns start on start), once it has all arrived.
  const comparison = input.comparison;
  const compared = useMemo(() => {
    if (!comparison?.complete || !window) return null;
    const shifted = comparison.rows.map((r) => shiftedRow(r, comparison.shiftMs));
    const other = overTime(shifted, metric, zone, window);
    return { label: comparison.label, byCrop: new Map(other.crops.map((c) => [c.crop, c.values])) };
  }, [comparison, metric, zone, window]);
  const dist = useMemo(() => distributionOf(cross.allBins, metric, targets), [cross.allBins, metric, targets]);
  const crops = useMemo(
    () =>
      cachedFor(cross.allCrops, `crops|${metric}|${keyOf(targets)}`, () => perCrop(cross.allCrops, metric, targets)),
    [cross.allCrops, metric, targets],
  );
  // The other metrics, one per idle moment, so that switching the Metric finds them made.
  useEffect(() => {
    if (missing.length) return;
    const work = METRICS.filter((m) => m !== metric).flatMap((m) => [
      () => cachedFor(cross.allDays, `time|${m}|${zone}|${windowKey}`, () => overTime(cross.allDays, m, zone, window)),
      () => distributionOf(cross.allBins, m, targets),
      () => cachedFor(cross.allCrops, `crops|${m}|${keyOf(targets)}`, () => perCrop(cross.allCrops, m, targets)),
    ]);
    return eachWhenIdle(work);
  }, [cross, metric, zone, window, windowKey, targets, missing]);
  const bins = useMemo(() => parseBins(view.bins), [view.bins]);
  const focus = useMemo(
    () =>
      view.focus
        ? view.focus.split(',').map((k) => {
            try {
              return decodeURIComponent(k);
            } catch {
              return k;
            }
          })
        : [],
    [view.focus],
  );
  // One line at the target on the distribution when every crop drawn shares it.
  const { sharedTarget, judged } = useMemo(() => {
    const set = new Set(crops.map((c) => metricTarget(targets, cropOfKey(c.crop), metric)));
    return { sharedTarget: set.size === 1 ? [...set][0]! : null, judged: [...set].some((t) => t !== null) };
  }, [crops, targets, metric]);

  const noMatch = input.noMatch ? t(`noMatch.${input.noMatch}`) : null;
  return (
    <section className={styles.chartsBox} aria-label={t('charts.label')}>
      <IncompleteNote of={completeness} zone={zone} what="These charts" retryLabel={t('retry')} />
      <div className={styles.charts}>
        <OverTime
          series={series}
          compared={compared}
          metric={metric}
          zone={zone}
          targets={targets}
          colours={colours}
          mode={view.chart}
          focus={focus}
          drill={drill}
          incomplete={incomplete}
          noMatch={noMatch}
        />
        {drawn >= 2 &&
          (Array.isArray(dist) ? (
            <SizeDistributions
              crops={dist}
              bins={bins}
              colours={colours}
              picked={view.crop}
              drill={drill}
              incomplete={incomplete}
              noMatch={noMatch}
            />
          ) : (
            <Distribution
              data={dist}
              bins={bins}
              sharedTarget={sharedTarget}
              judged={judged}
              drill={drill}
              incomplete={incomplete}
              noMatch={noMatch}
            />
          ))}
        {drawn >= 3 && (
          <CropsCompared
            crops={crops}
            metric={metric}
            colours={colours}
            picked={view.crop}
            drill={drill}
            incomplete={incomplete}
            noMatch={noMatch}
          />
        )}
      </div>
    </section>
  );
}

export default memo(Charts);
