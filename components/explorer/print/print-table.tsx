'use client';

import { Fragment, useMemo, type CSSProperties } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import type { Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import type { SortField } from '@/lib/explorer/url-state';
import { afterBreaks } from '@/lib/print/column-widths';
import type { Column } from '../table/columns';
import { textMeasure } from './measure';
import {
  MISS_MARKS,
  PRINT_CELL_PT,
  PRINT_CELLS,
  PRINT_PAD_PX,
  PRINT_ROW_LIMIT,
  printTableLayout,
  type MissMark,
  type PrintCell,
} from '@/lib/print/print-cells';
import styles from './print-report.module.css';

type Props = {
  rows: readonly Row[];
  columns: readonly Column[];
  zone: Zone;
  targets: Targets;
  sort: SortField;
  dir: 'asc' | 'desc';
};

/** The table's width on paper: what landscape Letter (279.4 mm) holds within the 8 mm sides of print.css, A4 too. */
const TABLE_MM = 263;

/** A header that may wrap at its spaces and after a slash or hyphen (where its widths were measured), nowhere else. */
function Header({ text }: { text: string }) {
  const parts = afterBreaks(text);
  return parts.map((p, i) => (
    <Fragment key={i}>
      {p}
      {i < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

/**
 * The batches on paper: the table's rows in its order and its columns, every one up to PRINT_ROW_LIMIT (the
 * screen's table holds only the rows in view), numbered, the header repeated on each page. A row is one line, so
 * 30 and more fit a page; the columns are as wide as their texts and header words (measured before the print),
 * and where the page is too narrow the longest texts end in "…" (the legend says so). Mounted only for a print.
 * A fixed layout: 2,000 rows of an automatic one took Chromium minutes to lay out, when it did at all.
 */
export function PrintTable({ rows, columns, zone, targets, sort, dir }: Props) {
  const t = useTranslations('print');
  const te = useTranslations('explorer');
  const f = useFormats();
  const { count } = f;
  const printed = useMemo(() => rows.slice(0, PRINT_ROW_LIMIT), [rows]);
  const warning = te('table.warning'),
    link = t('analysisLink');
  const germination = te('targetKinds.germination'),
    usable = te('targetKinds.usable'),
    cv = te('targetKinds.cv');
  const cells = useMemo(() => {
    const ctx = { zone, targets, f, words: { warning, link, kinds: { germination, usable, cv } } };
    return columns.map((c) => printed.map((r): PrintCell => PRINT_CELLS[c.id](r, ctx)));
  }, [columns, printed, zone, targets, f, warning, link, germination, usable, cv]);
  const headers = useMemo(
    () =>
      columns.map((c) => `${te(`columns.${c.id}`)}${c.sort && c.sort === sort ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}`),
    [columns, sort, dir, te],
  );
  const numbers = useMemo(() => printed.map((_, i) => count(i + 1)), [printed, count]);
  const layout = useMemo(() => {
    const family = typeof document === 'undefined' ? 'sans-serif' : getComputedStyle(document.body).fontFamily;
    const cell = textMeasure(`${PRINT_CELL_PT}pt ${family}`, PRINT_CELL_PT);
    const header = textMeasure(`600 ${PRINT_CELL_PT}pt ${family}`, PRINT_CELL_PT);
    const ids = columns.map((c) => c.id);
    return printTableLayout(ids, headers, numbers, cells, { header, cell }, TABLE_MM);
  }, [columns, cells, numbers, headers]);
  // The legend names only the marks printed.
  const marks = (['below', 'above'] as const).filter((m: MissMark) =>
    cells.some((col) => col.some((p) => p.miss === m)),
  );
  const anyCut = layout.cut.some(Boolean);
  const vars = {
    '--cell-size': `${PRINT_CELL_PT}pt`,
    '--head-size': `${PRINT_CELL_PT}pt`,
    '--pad-x': `${PRINT_PAD_PX}px`,
  } as CSSProperties;

  return (
    <section
      className={`print-only print-part ${styles.batches}`}
      style={{ width: `${TABLE_MM}mm` }}
      aria-label={t('batches')}
    >
      <h2 className={styles.sectionTitle}>{t('batches')}</h2>
      <p className={styles.note}>
        {t('batchesCount', { shown: count(rows.length), printed: count(printed.length) })}
        {marks.map((m) => (
          <Fragment key={m}> · {t(m === 'below' ? 'belowMark' : 'aboveMark', { mark: MISS_MARKS[m] })}</Fragment>
        ))}
        {anyCut && <> · {t('cutShort')}</>}
      </p>
      <table className={styles.table} style={vars}>
        <colgroup>
          {layout.percents.map((p, i) => (
            <col key={i} style={{ width: `${p.toFixed(3)}%` }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className={styles.num}>
              #
            </th>
            {columns.map((c, i) => (
              <th key={c.id} scope="col" className={c.numeric ? styles.num : undefined}>
                <Header text={headers[i]!} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {printed.map((r, i) => (
            <tr key={r.id}>
              <td className={styles.num}>{numbers[i]}</td>
              {columns.map((c, k) => {
                const cell = cells[k]![i]!;
                return (
                  <td key={c.id} className={`${c.numeric ? styles.num : ''} ${cell.miss ? styles.below : ''}`}>
                    {cell.href ? <a href={cell.href}>{cell.text}</a> : cell.text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > PRINT_ROW_LIMIT && (
        <p className={styles.more}>{t('more', { count: count(rows.length - PRINT_ROW_LIMIT) })}</p>
      )}
    </section>
  );
}
