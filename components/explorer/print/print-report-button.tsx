'use client';

import { useTranslations } from 'use-intl';
import styles from '../view/explorer.module.css';

type Props = { preparing: boolean; onPrint: () => void; disabled: boolean };

/** **Print report**: the view as a report on paper or PDF; while its charts are being drawn, it says so and waits. */
export function PrintReportButton({ preparing, onPrint, disabled }: Props) {
  const t = useTranslations('print');
  return (
    <span className={styles.printAction}>
      <button type="button" className="button" onClick={onPrint} disabled={disabled || preparing} aria-busy={preparing}>
        {t('button')}
      </button>
      {preparing && <span className={styles.muted}>{t('preparing')}</span>}
    </span>
  );
}
