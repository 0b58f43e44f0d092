'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import type { SortField } from '@/lib/explorer/url-state';
import type { CellContext, Column } from './columns';
import styles from './explorer.module.css';

const ROW_HEIGHT = 36;

type Props = {
  rows: readonly Row[];
  columns: Column[];
  zone: Zone;
  targets: Targets;
  sort: SortField;
  dir: 'asc' | 'desc';
  onSort: (field: SortField) => void;
  onOpen: (row: Row) => void;
};

/** Only the rows in view are in the DOM, so 100,000 rows scroll like 100. */
export function BatchTable({ rows, columns, zone, targets, sort, dir, onSort, onOpen }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer returns fresh functions each render by design; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtual.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtual.getTotalSize() - (items.at(-1)?.end ?? 0);
  const width = columns.reduce((w, c) => w + c.width, 0);
  const cell: CellContext = { zone, targets, onOpen };

  return (
    <div ref={scroller} className={styles.tableBox} tabIndex={0} role="region" aria-label="Batches table">
      <table className={styles.table} style={{ width }} aria-rowcount={rows.length + 1}>
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} style={{ width: c.width }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.id}
                scope="col"
                className={c.numeric ? styles.num : undefined}
                aria-sort={c.sort && c.sort === sort ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {c.sort ? (
                  <button type="button" className={styles.sortButton} onClick={() => onSort(c.sort!)}>
                    {c.label}
                    <span aria-hidden="true">{c.sort === sort ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true" style={{ height: before }}>
              <td colSpan={columns.length} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <tr
                key={row.batch.batch_id}
                aria-rowindex={item.index + 2}
                className={styles.row}
                style={{ height: ROW_HEIGHT }}
                onClick={(e) => {
                  if (!(e.target as HTMLElement).closest('a,button')) onOpen(row);
                }}
              >
                {columns.map((c) => (
                  <td key={c.id} className={c.numeric ? styles.num : undefined}>
                    {c.render(row, cell)}
                  </td>
                ))}
              </tr>
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true" style={{ height: after }}>
              <td colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
