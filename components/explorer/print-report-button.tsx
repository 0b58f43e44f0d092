'use client';

import { PRINT_STRINGS as S } from './print-strings';
import styles from './explorer.module.css';

type Props = { preparing: boolean; onPrint: () => void; disabled: boolean };

/** **Print report**: the view as a report on paper or PDF; while its charts are being drawn, it says so and waits. */
export function PrintReportButton({ preparing, onPrint, disabled }: Props) {
  return (
    <span className={styles.printAction}>
      <button type="button" className="button" onClick={onPrint} disabled={disabled || preparing} aria-busy={preparing}>
        {S.button}
      </button>
      {preparing && <span className={styles.muted}>{S.preparing}</span>}
    </span>
  );
}
