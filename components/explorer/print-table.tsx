'use client';

import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import type { Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import type { SortField } from '@/lib/explorer/url-state';
import type { CellContext, Column } from './columns';
import styles from './print-report.module.css';

/** So many batches are printed; the rest are one Export away. */
export const PRINT_ROW_LIMIT = 2000;

type Props = { rows: readonly Row[]; columns: readonly Column[]; zone: Zone; targets: Targets; sort: SortField; dir: 'asc' | 'desc' };

const noOpen = () => {};
/** The row number's share of a row (see Column.printWidth). */
const NUMBER_WIDTH = 5;

/**
 * The batches on paper: the table's rows in its order and its columns, every one up to PRINT_ROW_LIMIT (the
 * screen's table holds only the rows in view), numbered, the header repeated on each page. Mounted only for a
 * print. A fixed layout: 2,000 rows of an automatic one took Chromium minutes to lay out, when it did at all.
 */
export function PrintTable({ rows, columns, zone, targets, sort, dir }: Props) {
  const t = useTranslations('print');
  const te = useTranslations('explorer');
  const f = useFormats();
  const { count } = f;
  const printed = rows.slice(0, PRINT_ROW_LIMIT);
  const cell: CellContext = { zone, targets, onOpen: noOpen, tabbable: false, f, t: te };
  const total = columns.reduce((sum, c) => sum + c.printWidth, NUMBER_WIDTH);
  const share = (w: number) => `${((w / total) * 100).toFixed(2)}%`;
  return (
    <section className={`print-only print-part ${styles.batches}`} aria-label={t('batches')}>
      <h2 className={styles.sectionTitle}>{t('batches')}</h2>
      <p className={styles.note}>{t('batchesCount', { shown: count(rows.length), printed: count(printed.length) })}</p>
      <table className={styles.table}>
        <colgroup>
          <col style={{ width: share(NUMBER_WIDTH) }} />
          {columns.map((c) => (
            <col key={c.id} style={{ width: share(c.printWidth) }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className={styles.num}>
              #
            </th>
            {columns.map((c) => (
              <th key={c.id} scope="col" className={c.numeric ? styles.num : undefined}>
                {te(`columns.${c.id}`)}
                {c.sort && c.sort === sort ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {printed.map((r, i) => (
            <tr key={r.id}>
              <td className={`${styles.num} ${styles.rowNumber}`}>{count(i + 1)}</td>
              {columns.map((c) => (
                <td key={c.id} className={c.numeric ? styles.num : undefined}>
                  {(c.print ?? c.render)(r, cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > PRINT_ROW_LIMIT && <p className={styles.more}>{t('more', { count: count(rows.length - PRINT_ROW_LIMIT) })}</p>}
    </section>
  );
}
