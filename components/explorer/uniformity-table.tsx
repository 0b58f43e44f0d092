'use client';

import type { Density } from '@/lib/explorer/density';
import { MIXED } from '@/lib/explorer/density';
import { cropLabel } from '@/lib/explorer/rows';
import type { Mark } from './uniformity-plot';
import own from './uniformity.module.css';

const fmt = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const range = (lo: number, hi: number) => `${fmt.format(lo)}–${fmt.format(hi)}`;
const size = (v: number | null) => (v === null ? '—' : fmt.format(v));

/** The chart's marks as a table: the first cell of each row does what a click on that mark does. */
export function UniformityTable({ density, onMark }: { density: Density; onMark: (mark: Mark) => void }) {
  return (
    <div className={own.tableBox}>
      <table className={own.table}>
        <thead>
          <tr>
            <th scope="col">Mark</th>
            <th scope="col">Crop</th>
            <th scope="col" className={own.num}>Germination (%)</th>
            <th scope="col" className={own.num}>CV (%)</th>
            <th scope="col" className={own.num}>Median size (mm²)</th>
            <th scope="col" className={own.num}>Batches</th>
          </tr>
        </thead>
        <tbody>
          {density.cells.map((c, index) => (
            <tr key={`c${index}`}>
              <td>
                <button type="button" className={own.linkButton} onClick={() => onMark({ kind: 'cell', index })}>
                  Show {c.count.toLocaleString('en')} batches
                </button>
              </td>
              <td>{c.crop === MIXED ? 'Mixed crops' : cropLabel(c.crop)}</td>
              <td className={own.num}>{range(c.g0, c.g1)}</td>
              <td className={own.num}>{range(c.c0, c.c1)}</td>
              <td className={own.num}>{size(c.size)}</td>
              <td className={own.num}>{c.count.toLocaleString('en')}</td>
            </tr>
          ))}
          {density.points.map((p, index) => (
            <tr key={`p${index}`}>
              <td>
                <button type="button" className={own.linkButton} onClick={() => onMark({ kind: 'point', index })}>
                  {p.row.batch.batch_name}
                </button>
              </td>
              <td>{cropLabel(p.crop)}</td>
              <td className={own.num}>{fmt.format(p.germination)}</td>
              <td className={own.num}>{fmt.format(p.cv)}</td>
              <td className={own.num}>{size(p.size)}</td>
              <td className={own.num}>1</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
