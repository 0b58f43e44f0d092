'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import type { Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import type { SortField } from '@/lib/explorer/url-state';
import type { CellContext, Column } from './columns';
import { dateColumnWidth } from './date-column-width';
import styles from '../view/explorer.module.css';

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

/** Where each key moves the focused row, given the row count and the rows one screen holds. */
function moveTo(key: string, from: number, count: number, page: number): number | null {
  const to =
    key === 'ArrowDown'
      ? from + 1
      : key === 'ArrowUp'
        ? from - 1
        : key === 'PageDown'
          ? from + page
          : key === 'PageUp'
            ? from - page
            : key === 'Home'
              ? 0
              : key === 'End'
                ? count - 1
                : null;
  return to === null ? null : Math.max(0, Math.min(count - 1, to));
}

/** Scrolls `box` up or down just enough that `tr` is in view below the sticky header; never sideways. */
function revealRow(box: HTMLElement, tr: HTMLElement) {
  const head = box.querySelector('thead')?.getBoundingClientRect().height ?? 0;
  const view = box.getBoundingClientRect();
  const top = view.top + box.clientTop + head;
  const bottom = view.top + box.clientTop + box.clientHeight;
  const row = tr.getBoundingClientRect();
  if (row.top < top) box.scrollTop -= top - row.top;
  else if (row.bottom > bottom) box.scrollTop += Math.min(row.bottom - bottom, row.top - top);
}

/**
 * Only the rows in view are in the DOM, so 100,000 rows scroll like 100. The rows are one Tab stop (a roving
 * tabindex): Up/Down/Page/Home/End move between rows, Enter opens the batch; the focused row unfolds its cut text.
 */
export function BatchTable({ rows, columns, zone, targets, sort, dir, onSort, onOpen }: Props) {
  const t = useTranslations('explorer');
  const f = useFormats();
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  /** The row a key asked for, until it is rendered and focused (keys repeat faster than that). */
  const focusPending = useRef<number | null>(null);
  const current = Math.min(active, Math.max(0, rows.length - 1));
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
  const dateWidth = useMemo(() => dateColumnWidth(zone, 170, f), [zone, f]);
  const widthOf = (c: Column) => (c.id === 'date' ? Math.max(c.width, dateWidth) : c.width);
  const width = columns.reduce((w, c) => w + widthOf(c), 0);
  // The sticky column's width keeps what scrolls under it clear of it when focus or a key scrolls a cell into view.
  const stickyWidth = columns.reduce((w, c) => w + (c.sticky ? widthOf(c) : 0), 0);
  const classOf = (c: Column, ...own: (string | false | undefined)[]) =>
    [...own, c.sticky && styles.sticky].filter(Boolean).join(' ') || undefined;

  // A row moved to by key may not be rendered yet: scroll it into the virtual window, then focus it once it is.
  useEffect(() => {
    if (focusPending.current === null) return;
    const tr = scroller.current?.querySelector<HTMLElement>(`tr[data-index="${focusPending.current}"]`);
    if (tr) {
      focusPending.current = null;
      // Scrolled by hand: focus() would scroll the wide row sideways, and would hide it under the sticky header.
      tr.focus({ preventScroll: true });
      revealRow(scroller.current!, tr);
    }
  });

  function onKeyDown(e: KeyboardEvent<HTMLTableRowElement>, index: number, row: Row) {
    if (e.target !== e.currentTarget) return; // a key on the row's link is the link's
    if (e.key === 'Enter') {
      e.preventDefault();
      onOpen(row);
      return;
    }
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 2);
    const to = moveTo(e.key, focusPending.current ?? index, rows.length, page);
    if (to === null) return;
    e.preventDefault();
    setActive(to);
    focusPending.current = to;
    virtual.scrollToIndex(to, { align: 'auto' });
  }

  return (
    <>
      <a href="#charts" className={styles.skipLink}>
        {t('table.skip')}
      </a>
      <div
        ref={scroller}
        className={styles.tableBox}
        style={{ scrollPaddingLeft: stickyWidth }}
        tabIndex={rows.length ? undefined : 0}
        role="region"
        aria-label={t('table.label')}
      >
        <table className={styles.table} style={{ width }} aria-rowcount={rows.length + 1}>
          <colgroup>
            {columns.map((c) => (
              <col key={c.id} style={{ width: widthOf(c) }} />
            ))}
          </colgroup>
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.id}
                  scope="col"
                  className={classOf(c, c.numeric && styles.num)}
                  aria-sort={c.sort && c.sort === sort ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {c.sort ? (
                    <button type="button" className={styles.sortButton} onClick={() => onSort(c.sort!)}>
                      {t(`columns.${c.id}`)}
                      <span aria-hidden="true">{c.sort === sort ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                    </button>
                  ) : (
                    t(`columns.${c.id}`)
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
              const tabbable = item.index === current;
              const cell: CellContext = { zone, targets, onOpen, tabbable, f, t };
              return (
                <tr
                  key={row.id}
                  ref={virtual.measureElement}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  className={styles.row}
                  style={{ height: ROW_HEIGHT }}
                  tabIndex={tabbable ? 0 : -1}
                  onFocus={(e) => {
                    if (e.target === e.currentTarget && item.index !== current) setActive(item.index);
                  }}
                  onKeyDown={(e) => onKeyDown(e, item.index, row)}
                  onClick={(e) => {
                    if (!(e.target as HTMLElement).closest('a,button')) onOpen(row);
                  }}
                >
                  {columns.map((c) => (
                    <td
                      key={c.id}
                      className={classOf(c, c.numeric ? styles.num : c.id === 'date' && styles.date)}
                      title={c.full?.(row) ?? undefined}
                    >
                      {c.full ? <div className={styles.unfold}>{c.render(row, cell)}</div> : c.render(row, cell)}
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
    </>
  );
}
