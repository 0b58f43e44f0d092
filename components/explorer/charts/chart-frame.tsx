'use client';

import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import styles from '../view/explorer.module.css';

type Props = {
  id: string;
  title: ReactNode;
  incomplete: boolean;
  /** Controls beside the title (a mode switch…). */
  controls?: ReactNode;
  /** The chart's data as a table: rendered instead of the drawing when **Show as table** is pressed. */
  table: () => ReactNode;
  children: ReactNode;
  wide?: boolean;
};

/**
 * A chart's figure: its caption, an Incomplete tag while batches are missing, and a **Show as table** toggle
 * that puts the same data in an HTML table whose first cells are buttons doing what a click on the mark does,
 * so every chart can be read and used by keyboard and screen reader.
 */
export function ChartFrame({ id, title, incomplete, controls, table, children, wide }: Props) {
  const [asTable, setAsTable] = useState(false);
  const t = useTranslations('analysis');
  return (
    <figure className={`${styles.chart} ${wide ? styles.chartWide : ''}`} aria-labelledby={id}>
      <div className={styles.chartHead}>
        <figcaption id={id}>
          {title}
          {incomplete && <span className={styles.incompleteTag}> · {t('incomplete')}</span>}
        </figcaption>
        <span className={styles.chartControls}>
          {controls}
          <button type="button" className="button" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
            {t('showAsTable')}
          </button>
        </span>
      </div>
      {asTable ? <div className={styles.chartTable}>{table()}</div> : children}
    </figure>
  );
}

/** Tooltips in the page's colours (the default white box was white on white in dark mode). */
export const TOOLTIP: { contentStyle: CSSProperties; labelStyle: CSSProperties; itemStyle: CSSProperties } = {
  contentStyle: { background: 'var(--card)', color: 'var(--fg)', border: '1px solid var(--border)', borderRadius: 6 },
  labelStyle: { color: 'var(--fg)', fontWeight: 600 },
  itemStyle: { color: 'var(--fg)' },
};

/** Axis text in the page's foreground colour (muted grey ticks fell under 4.5:1 on cards). */
export const AXIS = { stroke: 'var(--muted)', tick: { fill: 'var(--fg)', fontSize: 12 } } as const;
