'use client';

import type { Density } from '@/lib/explorer/density';
import { MIXED } from '@/lib/explorer/density';
import { cropName } from '@/lib/explorer/drill';
import type { Mark } from './uniformity-plot';
import own from './uniformity.module.css';
import { useSpeech } from './use-speech';

/** The chart's marks as a table: the first cell of each row does what a click on that mark does. */
export function UniformityTable({ density, onMark }: { density: Density; onMark: (mark: Mark) => void }) {
  const { f, t } = useSpeech();
  const range = (lo: number, hi: number) => t('uniformity.range', { lo: f.number(lo), hi: f.number(hi) });
  const size = (v: number | null) => (v === null ? '—' : f.number(v));
  return (
    <div className={own.tableBox}>
      <table className={own.table}>
        <thead>
          <tr>
            <th scope="col">{t('uniformity.mark')}</th>
            <th scope="col">{t('cropHeader')}</th>
            <th scope="col" className={own.num}>{t('uniformity.germinationHeader')}</th>
            <th scope="col" className={own.num}>{t('uniformity.cvHeader')}</th>
            <th scope="col" className={own.num}>{t('uniformity.sizeHeader')}</th>
            <th scope="col" className={own.num}>{t('batchesHeader')}</th>
          </tr>
        </thead>
        <tbody>
          {density.cells.map((c, index) => (
            <tr key={`c${index}`}>
              <td>
                <button type="button" className={own.linkButton} onClick={() => onMark({ kind: 'cell', index })}>
                  {t('uniformity.showCell', { count: c.count, countText: f.count(c.count) })}
                </button>
              </td>
              <td>{c.crop === MIXED ? t('mixedCrops') : cropName(c.crop, t)}</td>
              <td className={own.num}>{range(c.g0, c.g1)}</td>
              <td className={own.num}>{range(c.c0, c.c1)}</td>
              <td className={own.num}>{size(c.size)}</td>
              <td className={own.num}>{f.count(c.count)}</td>
            </tr>
          ))}
          {density.points.map((p, index) => (
            <tr key={`p${index}`}>
              <td>
                <button type="button" className={own.linkButton} onClick={() => onMark({ kind: 'point', index })}>
                  {p.row.name}
                </button>
              </td>
              <td>{cropName(p.crop, t)}</td>
              <td className={own.num}>{f.number(p.germination)}</td>
              <td className={own.num}>{f.number(p.cv)}</td>
              <td className={own.num}>{size(p.size)}</td>
              <td className={own.num}>{f.count(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
