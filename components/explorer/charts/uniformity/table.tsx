'use client';

import type { Targets } from '@/lib/contract';
import { targetFor } from '@/lib/contract';
import { cropName } from '@/lib/explorer/drill';
import { formatJudged } from '@/lib/explorer/metrics';
import { MIXED, SVG_POINTS, type Scatter, type ScatterCell } from '@/lib/explorer/uniformity/scatter';
import { useSpeech } from '../../shared/use-speech';
import { isHollow, isSquare } from './glyphs';
import type { Mark } from './marks';
import own from '../uniformity.module.css';

type Props = {
  scatter: Scatter;
  /** The grid's cells when the points are too many to list one by one (else null). */
  grid: readonly ScatterCell[] | null;
  targets: Targets;
  onMark: (mark: Mark) => void;
  onCell: (cell: ScatterCell) => void;
};

/**
 * The chart as a table, whose first cell in each row does what a click on the mark does: each batch with its
 * verdict (up to SVG_POINTS of them), or else the grid's cells, each showing its batches.
 */
export function UniformityTable({ scatter, grid, targets, onMark, onCell }: Props) {
  const { f, t } = useSpeech();
  const size = (v: number | null) => (v === null ? '—' : f.number(v));
  const verdict = (v: number, crop: string | null) => {
    const parts = [];
    if (targetFor(targets, crop, 'germination') !== null)
      parts.push(t(isHollow(v) ? 'uniformity.belowShort' : 'uniformity.meetsShort'));
    if (targetFor(targets, crop, 'cv') !== null && isSquare(v)) parts.push(t('uniformity.overShort'));
    return parts.join(', ') || '—';
  };
  const cells = scatter.kind === 'cells' ? scatter.cells : grid;
  return (
    <div className={own.tableBox}>
      {cells && scatter.kind === 'points' && (
        <p className={own.caption}>{t('uniformity.tableCells', { limit: f.count(SVG_POINTS) })}</p>
      )}
      <table className={own.table}>
        <thead>
          <tr>
            <th scope="col">{t('uniformity.mark')}</th>
            <th scope="col">{t('cropHeader')}</th>
            <th scope="col" className={own.num}>
              {t('uniformity.germinationHeader')}
            </th>
            <th scope="col" className={own.num}>
              {t('uniformity.cvHeader')}
            </th>
            <th scope="col" className={own.num}>
              {t('uniformity.sizeHeader')}
            </th>
            <th scope="col" className={own.num}>
              {cells ? t('batchesHeader') : t('uniformity.verdictHeader')}
            </th>
          </tr>
        </thead>
        <tbody>
          {cells
            ? cells.map((c, index) => (
                <tr key={`c${index}`}>
                  <td>
                    <button
                      type="button"
                      className={own.linkButton}
                      onClick={() => (scatter.kind === 'cells' ? onMark({ kind: 'cell', index }) : onCell(c))}
                    >
                      {t('uniformity.showCell', { count: c.count, countText: f.count(c.count) })}
                    </button>
                  </td>
                  <td>{c.crop === MIXED ? t('uniformity.noMajority') : cropName(c.crop, t)}</td>
                  <td className={own.num}>{f.percentRange(c.g0, c.g1)}</td>
                  <td className={own.num}>{f.percentRange(c.c0, c.c1)}</td>
                  <td className={own.num}>{size(c.size)}</td>
                  <td className={own.num}>{f.count(c.count)}</td>
                </tr>
              ))
            : scatter.points.map((p, index) => (
                <tr key={`p${index}`}>
                  <td>
                    <button type="button" className={own.linkButton} onClick={() => onMark({ kind: 'point', index })}>
                      {p.row.name}
                    </button>
                  </td>
                  <td>{cropName(p.crop, t)}</td>
                  <td className={own.num}>
                    {formatJudged('germination', p.germination, targetFor(targets, p.row.crop, 'germination'), f)}
                  </td>
                  <td className={own.num}>{formatJudged('cv', p.cv, targetFor(targets, p.row.crop, 'cv'), f)}</td>
                  <td className={own.num}>{size(p.row.size)}</td>
                  <td className={own.num}>{verdict(p.verdict, p.row.crop)}</td>
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}
