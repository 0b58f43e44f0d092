'use client';

import { useEffect, useMemo, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { BATCH_FIELDS } from '@/lib/contract';
import type { Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import { verdict } from '@/lib/explorer/verdict';
import { AnalysisLink } from './analysis-link';
import { DASH, fmtDate, fmtInt, fmtText } from './format';
import styles from './explorer.module.css';

type Props = {
  row: Row | null;
  /** The id asked for by the URL when the range loaded completely without it. */
  missing: string | null;
  /** The table's rows in its order (sorted and filtered): Previous and Next follow them. */
  rows: readonly Row[];
  zone: Zone;
  targets: Targets;
  onShow: (row: Row) => void;
  onClose: () => void;
};

/** The service's decimals exactly as it sent them (two places), never re-rounded, with their unit. */
const given = (v: string | null, unit: string) => (v === null ? DASH : `${v} ${unit}`.trimEnd());

/** One batch for an agronomist: labelled fields with units, the target verdict, the API names on demand. */
export function BatchDetail({ row, missing, rows, zone, targets, onShow, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const prevButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const shown = row !== null || missing !== null;
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (shown && !d.open) d.showModal();
    if (!shown && d.open) d.close();
  }, [shown]);

  const index = useMemo(() => (row ? rows.indexOf(row) : -1), [rows, row]);
  const prev = index > 0 ? rows[index - 1]! : null;
  const next = index >= 0 && index < rows.length - 1 ? rows[index + 1]! : null;

  function step(delta: -1 | 1) {
    const to = index < 0 ? undefined : rows[index + delta];
    if (!to) return;
    onShow(to);
    // The button just used is about to be disabled: keep the focus in the dialog, on the one still useful.
    if (index + delta === 0) nextButton.current?.focus();
    if (index + delta === rows.length - 1) prevButton.current?.focus();
  }
  const goPrev = () => step(-1);
  const goNext = () => step(1);
  function onKeyDown(e: KeyboardEvent<HTMLDialogElement>) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key === 'ArrowLeft' && prev) { e.preventDefault(); goPrev(); }
    if (e.key === 'ArrowRight' && next) { e.preventDefault(); goNext(); }
  }

  return (
    <dialog ref={dialog} className={styles.dialog} onClose={onClose} onKeyDown={onKeyDown} aria-labelledby="batch-detail-title">
      {row ? (
        <>
          <h2 id="batch-detail-title" className={styles.dialogTitle}>
            {row.batch.batch_name}
          </h2>
          <Verdicts row={row} targets={targets} />
          <BatchFields row={row} zone={zone} />
          <details className={styles.apiFields}>
            <summary>API field names</summary>
            <dl className={styles.fields}>
              {BATCH_FIELDS.map((field) => (
                <div key={field}>
                  <dt>
                    <code>{field}</code>
                  </dt>
                  <dd>
                    <code>{row.batch[field] === null ? 'null' : String(row.batch[field])}</code>
                  </dd>
                </div>
              ))}
            </dl>
          </details>
        </>
      ) : (
        missing !== null && (
          <>
            <h2 id="batch-detail-title" className={styles.dialogTitle}>
              Batch not in this range
            </h2>
            <p>
              No batch with the ID <code>{missing}</code> is in the days chosen. Choose a wider range, or “All time”, to find it.
            </p>
          </>
        )
      )}
      <form method="dialog" className={styles.dialogActions}>
        {row && (
          <>
            <button ref={prevButton} className="button" type="button" onClick={goPrev} disabled={!prev} aria-keyshortcuts="ArrowLeft">
              Previous
            </button>
            <button ref={nextButton} className="button" type="button" onClick={goNext} disabled={!next} aria-keyshortcuts="ArrowRight">
              Next
            </button>
          </>
        )}
        <button className="button" type="submit" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}

function Verdicts({ row, targets }: { row: Row; targets: Targets }) {
  const germination = verdict(row, targets, 'germination');
  // The usable-seedling target is optional: said only when one is set.
  const usable = verdict(row, targets, 'usable');
  return (
    <ul className={styles.verdicts}>
      {[germination, ...(usable.target === null ? [] : [usable])].map((v) => (
        <li key={v.text} className={v.below ? styles.verdictBelow : undefined}>
          {v.below ? '▼ ' : ''}
          {v.text}
        </li>
      ))}
    </ul>
  );
}

function Section({ title, fields }: { title: string; fields: [string, ReactNode][] }) {
  return (
    <section className={styles.detailSection} aria-label={title}>
      <h3>{title}</h3>
      <dl className={styles.fields}>
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function BatchFields({ row, zone }: { row: Row; zone: Zone }) {
  const b = row.batch;
  const localZone = zone === 'UTC' ? null : zone;
  return (
    <>
      <Section
        title="Batch"
        fields={[
          ['Created', <>
            {localZone && <>{fmtDate(row.time, localZone)} ({localZone})<br /></>}
            {fmtDate(row.time, 'UTC')}
          </>],
          ['Crop', fmtText(b.crop_type)],
          ['Batch ID', b.batch_id],
        ]}
      />
      <Section
        title="Germination"
        fields={[
          ['Germination rate', given(b.avg_germination_rate, '%')],
          ['Germinated seedlings per tray', given(b.avg_germinated_seedlings, '')],
          ['Non-germinated seedlings per tray', given(b.avg_non_germinated_seedlings, '')],
        ]}
      />
      <Section
        title="Usable seedlings"
        fields={[
          ['Usable-seedling rate', given(b.avg_usable_seedling_rate, '%')],
          ['Usable seedlings per tray', given(b.avg_usable_seedlings, '')],
          ['Non-usable cells per tray', given(b.avg_non_usable_cells, '')],
        ]}
      />
      <Section
        title="Tray and seedlings"
        fields={[
          ['Cells per tray', fmtInt(b.total_cells_per_tray)],
          ['Size uniformity (CV)', given(b.avg_coefficient_of_variation, '%')],
          ['Median seedling size', given(b.avg_median_seedling_size_mm2, 'mm²')],
          ['Images', fmtInt(b.number_of_images)],
        ]}
      />
      <Section
        title="Scan"
        fields={[
          ['Warnings', b.warnings ? 'Yes — this scan raised a warning' : 'No warnings'],
          ['Comment', fmtText(b.comment)],
          ['Scanned by', b.scanned_by_email ? <a href={`mailto:${b.scanned_by_email}`}>{b.scanned_by_email}</a> : DASH],
          ['Analysis report', <AnalysisLink key="a" link={b.analysis_link} />],
        ]}
      />
    </>
  );
}
