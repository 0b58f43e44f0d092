'use client';

import { targetFor, type Targets } from '@/lib/contract';
import { cropName } from '@/lib/explorer/drill';
import { formatJudged } from '@/lib/explorer/metrics';
import { MIXED, type Scatter } from '@/lib/explorer/uniformity/scatter';
import { useSpeech } from '../../shared/use-speech';
import { isHollow, isSquare } from './glyphs';
import type { Mark } from './marks';
import styles from '../uniformity.module.css';

/** What the mark under the pointer is: a batch with its verdict against its own crop's targets, or a cell's batches. */
export function MarkTip({ scatter, mark, targets }: { scatter: Scatter; mark: Mark; targets: Targets }) {
  const { f, t } = useSpeech();
  const size = (v: number | null) =>
    v === null ? t('uniformity.tipSizeNone') : t('uniformity.tipSize', { value: f.number(v) });
  if (mark.kind === 'point') {
    const p = scatter.points[mark.index];
    if (!p) return null;
    const crop = cropName(p.crop, t);
    const target = targetFor(targets, p.row.crop, 'germination'),
      threshold = targetFor(targets, p.row.crop, 'cv');
    return (
      <>
        <strong>{p.row.name}</strong>
        <span>{crop}</span>
        <span>{t('uniformity.tipGermination', { value: formatJudged('germination', p.germination, target, f) })}</span>
        <span>{t('uniformity.tipCv', { value: formatJudged('cv', p.cv, threshold, f) })}</span>
        <span>{size(p.row.size)}</span>
        {target !== null && (
          <span>
            {t(isHollow(p.verdict) ? 'uniformity.tipBelow' : 'uniformity.tipMeets', {
              crop,
              target: f.percentUpTo(target),
            })}
          </span>
        )}
        {threshold !== null && (
          <span>
            {t(isSquare(p.verdict) ? 'uniformity.tipOver' : 'uniformity.tipWithin', {
              crop,
              threshold: f.percentUpTo(threshold),
            })}
          </span>
        )}
        <span className={styles.hint}>{t('uniformity.openBatch')}</span>
      </>
    );
  }
  const c = scatter.cells[mark.index];
  if (!c) return null;
  return (
    <>
      <strong>{t('uniformity.cellBatches', { count: c.count, countText: f.count(c.count) })}</strong>
      <span>
        {c.crop === MIXED ? t('uniformity.noMajority') : t('uniformity.mostly', { crop: cropName(c.crop, t) })}
      </span>
      <span>{t('uniformity.tipGerminationRange', { range: f.percentRange(c.g0, c.g1) })}</span>
      <span>{t('uniformity.tipCvRange', { range: f.percentRange(c.c0, c.c1) })}</span>
      <span>{size(c.size)}</span>
      <span>{t('uniformity.cellBelow', { count: c.below, countText: f.count(c.below) })}</span>
      {scatter.thresholds && <span>{t('uniformity.cellOver', { count: c.over, countText: f.count(c.over) })}</span>}
      <span className={styles.hint}>{t('uniformity.showBatches')}</span>
    </>
  );
}
