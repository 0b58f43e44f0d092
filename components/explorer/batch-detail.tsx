'use client';

import { useEffect, useRef } from 'react';
import { BATCH_FIELDS } from '@/lib/contract';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import { AnalysisLink } from './analysis-link';
import { DASH, fmtDate } from './format';
import styles from './explorer.module.css';

/** All 18 fields of one batch in a modal dialog (Escape closes, focus returns to the table). */
export function BatchDetail({ row, zone, onClose }: { row: Row | null; zone: Zone; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (row && !d.open) d.showModal();
    if (!row && d.open) d.close();
  }, [row]);

  return (
    <dialog ref={dialog} className={styles.dialog} onClose={onClose} aria-labelledby="batch-detail-title">
      {row && (
        <>
          <h2 id="batch-detail-title" className={styles.dialogTitle}>
            {row.batch.batch_name}
          </h2>
          <dl className={styles.fields}>
            {BATCH_FIELDS.map((field) => {
              const value = row.batch[field];
              return (
                <div key={field}>
                  <dt>{field}</dt>
                  <dd>
                    {field === 'analysis_link' ? (
                      <AnalysisLink link={row.batch.analysis_link} />
                    ) : field === 'batch_creation_date' ? (
                      `${row.batch.batch_creation_date} (${fmtDate(row.time, zone)})`
                    ) : value === null ? (
                      DASH
                    ) : (
                      String(value)
                    )}
                  </dd>
                </div>
              );
            })}
          </dl>
          <form method="dialog">
            <button className="button" type="submit" autoFocus>
              Close
            </button>
          </form>
        </>
      )}
    </dialog>
  );
}
