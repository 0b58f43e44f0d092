'use client';

import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useAfterPaint } from '../shared/use-after-paint';
import { cachedFor, keyOf } from '@/lib/explorer/row-cache';
import { targetFor } from '@/lib/contract';
import { cropName, formatBins, parseBins, withBin } from '@/lib/explorer/drill';
import { cropOfKey } from '@/lib/explorer/rows';
import { gridOf, scatterOf, SVG_POINTS, type ScatterCell } from '@/lib/explorer/uniformity/scatter';
import type { AnalysisInput } from '../analysis/analysis';
import { IncompleteNote } from '../range/incomplete-note';
import { PENDING, usePrinting } from '../print/printing';
import { UniformityLegend } from './uniformity/legend';
import type { Mark } from './uniformity/marks';
import { UniformityPlot } from './uniformity/plot';
import { UniformityTable } from './uniformity/table';
import { useSpeech } from '../shared/use-speech';
import styles from '../view/explorer.module.css';
import own from './uniformity.module.css';

/**
 * The germination target and CV threshold to draw as lines: those of the crops shown when every one of them is
 * judged by the same pair (null: none shown, or their targets differ, when no single line could be right for all).
 */
function sharedLines(crops: readonly string[], targets: AnalysisInput['targets']) {
  const pairs = crops.map((c) => ({
    target: targetFor(targets, cropOfKey(c), 'germination'),
    threshold: targetFor(targets, cropOfKey(c), 'cv'),
  }));
  const first = pairs[0];
  return first && pairs.every((p) => p.target === first.target && p.threshold === first.threshold) ? first : null;
}

/**
 * Germination vs uniformity: each batch's germination rate against the CV of its seedling size, as a point in
 * its crop's colour whose glyph carries its verdict against its own crop's target and threshold (up to
 * POINT_LIMIT; equal cells beyond, see scatter.ts). With one crop shown, that crop's target and threshold are
 * the quadrant lines, as they are for several crops judged by the same pair; where their targets differ no single
 * line could be right for all, and the glyphs alone judge. A cell
 * drills down to its batches; a point opens its batch; the table is the keyboard's way to both.
 */
function UniformityChart({ input }: { input: AnalysisInput }) {
  const { targets, colours, completeness, zone, drill, openBatch, view } = input;
  const { t, f } = useSpeech();
  // After the paint that shows a change (a drill-down's table and charts first, then this); drawn without its own
  // drill-down (germination and CV bins), so a drilled cell keeps its neighbours, as the other charts do.
  const rows = useAfterPaint(input.cross.allUniformity);
  // Drawn a task after the other charts mount (they arrive in the same commit), so that no single task carries both.
  const [later, setReady] = useState(false);
  // A print draws it now: the report must hold every chart.
  const printing = usePrinting();
  const ready = later || printing;
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 0);
    return () => clearTimeout(timer);
  }, []);
  const scatter = useMemo(
    () => (ready ? cachedFor(rows, `scatter|${keyOf(targets)}`, () => scatterOf(rows, targets)) : null),
    [rows, ready, targets],
  );
  const crops = useMemo(() => [...colours.keys()].filter((c) => scatter?.crops.has(c)), [scatter, colours]);
  // The legend names the crops whose colour is drawn (in cells: the crops holding over half of some cell).
  const coloured = useMemo(() => crops.filter((c) => scatter?.coloured.has(c)), [crops, scatter]);
  // One crop shown (the crop filter, or the only crop there is): its own target and threshold as lines.
  const only = view.crop ?? (crops.length === 1 ? crops[0] : undefined);
  const lines = useMemo(() => sharedLines(only === undefined ? crops : [only], targets), [only, crops, targets]);
  const [asTable, setAsTable] = useState(false);
  // The table lists the grid's cells where points are too many to list one by one.
  const grid = useMemo(
    () =>
      asTable && scatter?.kind === 'points' && scatter.points.length > SVG_POINTS
        ? gridOf(rows, targets, scatter)
        : null,
    [asTable, scatter, rows, targets],
  );

  const showCell = useCallback(
    (c: ScatterCell) => {
      const bins = withBin(withBin(parseBins(view.bins), { metric: 'germination', lo: c.g0, hi: c.g1 }), {
        metric: 'cv',
        lo: c.c0,
        hi: c.c1,
      });
      drill({ bins: formatBins(bins) });
    },
    [drill, view.bins],
  );
  const onMark = useCallback(
    (mark: Mark) => {
      if (!scatter) return;
      if (mark.kind === 'point') return openBatch(scatter.points[mark.index]!.row);
      showCell(scatter.cells[mark.index]!);
    },
    [scatter, openBatch, showCell],
  );

  const noneText = rows.length === 0 && input.noMatch ? t(`noMatch.${input.noMatch}`) : t('uniformity.none');
  return (
    <section className={styles.chartsBox} aria-label={t('uniformity.label')}>
      <IncompleteNote of={completeness} zone={zone} what="This chart" />
      <figure className={styles.chart} aria-labelledby="chart-uniformity">
        <figcaption id="chart-uniformity">
          {only === undefined ? t('uniformity.caption') : t('uniformity.captionCrop', { crop: cropName(only, t) })}
          {completeness.missing.length > 0 && <span className={styles.incompleteTag}> · {t('incomplete')}</span>}
        </figcaption>
        {!scatter ? (
          <p className={styles.chartEmpty} {...PENDING}>
            {t('uniformity.drawing')}
          </p>
        ) : scatter.drawn === 0 ? (
          <p className={styles.chartEmpty}>{noneText}</p>
        ) : asTable ? (
          <UniformityTable scatter={scatter} grid={grid} targets={targets} onMark={onMark} onCell={showCell} />
        ) : (
          <>
            <UniformityPlot scatter={scatter} colours={colours} targets={targets} lines={lines} onMark={onMark} />
            <UniformityLegend scatter={scatter} crops={coloured} colours={colours} />
          </>
        )}
        <div className={own.foot}>
          {scatter && scatter.drawn > 0 && (
            <p className={own.caption} data-part="uniformity-caption">
              {scatter.kind === 'points'
                ? t('uniformity.points', { count: scatter.points.length, countText: f.count(scatter.points.length) })
                : t('uniformity.cells', {
                    batches: t('batches', { count: scatter.drawn, countText: f.count(scatter.drawn) }),
                    cells: scatter.cells.length,
                    cellsText: f.count(scatter.cells.length),
                  })}
              {scatter.undrawn > 0 &&
                t('uniformity.undrawn', {
                  batches: t('batches', { count: scatter.undrawn, countText: f.count(scatter.undrawn) }),
                })}
              .{' '}
              {lines === null
                ? t(scatter.thresholds ? 'uniformity.ownTargets' : 'uniformity.ownTarget')
                : only === undefined
                  ? t('uniformity.sharedLines')
                  : t('uniformity.cropLines', { crop: cropName(only, t) })}
              {!scatter.thresholds && ` ${t('uniformity.noThreshold')}`}
            </p>
          )}
          <button type="button" className="button" aria-pressed={asTable} onClick={() => setAsTable((on) => !on)}>
            {t('showAsTable')}
          </button>
        </div>
      </figure>
    </section>
  );
}

export default memo(UniformityChart);
