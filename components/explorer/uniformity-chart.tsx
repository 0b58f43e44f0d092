'use client';

import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useAfterPaint } from './use-after-paint';
import { cachedFor } from '@/lib/explorer/row-cache';
import { targetFor } from '@/lib/contract';
import { densityMarks, MIXED } from '@/lib/explorer/density';
import { cropName, formatBins, parseBins, withBin } from '@/lib/explorer/drill';
import { cropOfKey } from '@/lib/explorer/rows';
import type { AnalysisInput } from './analysis';
import { IncompleteNote } from './incomplete-note';
import { PENDING, usePrinting } from './printing';
import { UniformityTable } from './uniformity-table';
import { UniformityPlot, type Mark } from './uniformity-plot';
import { useSpeech } from './use-speech';
import styles from './explorer.module.css';
import own from './uniformity.module.css';

const EMPTY = densityMarks([]);

/**
 * Germination vs uniformity (issue 10 §6): each batch's germination rate against the CV of its seedling size,
 * in at most ~2,000 marks (density.ts), with the germination target and the CV threshold as quadrant lines.
 * A density cell drills down to its batches; a point opens its batch; the table is the keyboard's way to both.
 */
function UniformityChart({ input }: { input: AnalysisInput }) {
  const { targets, colours, completeness, zone, drill, openBatch, view } = input;
  const { t, f } = useSpeech();
  // After the paint that shows a change (a drill-down's table and charts first, then this); drawn without its own
  // drill-down (germination and CV bins), so a drilled cell keeps its neighbours, as the other charts do.
  const rows = useAfterPaint(input.cross.allUniformity);
  // Drawn a task after the other charts mount (they arrive in the same commit), so that no single task carries
  // both; then once per change of rows (not per render, nor per change of targets).
  const [later, setReady] = useState(false);
  // A print draws it now: the report must hold every chart.
  const printing = usePrinting();
  const ready = later || printing;
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 0);
    return () => clearTimeout(timer);
  }, []);
  const density = useMemo(() => (ready ? cachedFor(rows, 'density', () => densityMarks(rows)) : EMPTY), [rows, ready]);
  const crops = useMemo(() => {
    const seen = new Set<string>();
    for (const p of density.points) seen.add(p.crop);
    for (const c of density.cells) if (c.crop !== MIXED) seen.add(c.crop);
    return [...colours.keys()].filter((c) => seen.has(c));
  }, [density, colours]);
  // One crop shown: its own targets; otherwise the general ones (the lines cannot be every crop's at once).
  const only = view.crop ?? (crops.length === 1 && !density.cells.some((c) => c.crop === MIXED) ? crops[0] : undefined);
  const crop = only === undefined ? null : cropOfKey(only);
  const target = only === undefined ? targets.general.germination : targetFor(targets, crop, 'germination');
  const threshold = only === undefined ? targets.general.cv : targetFor(targets, crop, 'cv');
  const [asTable, setAsTable] = useState(false);

  const onMark = useCallback(
    (mark: Mark) => {
      if (mark.kind === 'point') return openBatch(density.points[mark.index]!.row);
      const c = density.cells[mark.index]!;
      const bins = withBin(withBin(parseBins(view.bins), { metric: 'germination', lo: c.g0, hi: c.g1 }), { metric: 'cv', lo: c.c0, hi: c.c1 });
      drill({ bins: formatBins(bins) });
    },
    [density, drill, openBatch, view.bins],
  );
  const inCells = density.drawn - density.points.length;

  return (
    <section className={styles.chartsBox} aria-label={t('uniformity.label')}>
      <IncompleteNote of={completeness} zone={zone} what="This chart" />
      <figure className={styles.chart} aria-labelledby="chart-uniformity">
        <figcaption id="chart-uniformity">
          {t('uniformity.caption')}
          {completeness.missing.length > 0 && <span className={styles.incompleteTag}> · {t('incomplete')}</span>}
        </figcaption>
        {!ready ? (
          <p className={styles.chartEmpty} {...PENDING}>{t('uniformity.drawing')}</p>
        ) : density.drawn === 0 ? (
          <p className={styles.chartEmpty}>{t('uniformity.none')}</p>
        ) : asTable ? (
          <UniformityTable density={density} onMark={onMark} />
        ) : (
          <>
            <UniformityPlot density={density} colours={colours} target={target} threshold={threshold} onMark={onMark} />
            <ul className={own.legend} aria-label={t('uniformity.crops')}>
              {crops.map((c) => (
                <li key={c}>
                  <span className={own.swatch} style={{ background: colours.get(c) }} aria-hidden="true" />
                  {cropName(c, t)}
                </li>
              ))}
              {density.cells.length > 0 && (
                <li>
                  <span className={`${own.swatch} ${own.square}`} style={{ background: 'var(--muted)', opacity: 0.6 }} aria-hidden="true" />
                  {t('uniformity.square')}
                </li>
              )}
            </ul>
          </>
        )}
        <div className={own.foot}>
          <p className={own.caption}>
            {t('uniformity.points', { count: density.points.length, countText: f.count(density.points.length) })}
            {density.cells.length > 0 && t('uniformity.inCells', { batches: t('batches', { count: inCells, countText: f.count(inCells) }), cells: density.cells.length, cellsText: f.count(density.cells.length) })}
            {density.undrawn > 0 && t('uniformity.undrawn', { batches: t('batches', { count: density.undrawn, countText: f.count(density.undrawn) }) })}.
            {threshold === null && t('uniformity.noThreshold')}
          </p>
          <button type="button" className="button" aria-pressed={asTable} onClick={() => setAsTable((t) => !t)}>
            {t('showAsTable')}
          </button>
        </div>
      </figure>
    </section>
  );
}

export default memo(UniformityChart);
