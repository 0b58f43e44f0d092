'use client';

import { useEffect, useMemo, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import { BATCH_FIELDS } from '@/lib/contract';
import { TARGET_METRICS, type Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import { sayVerdict, verdict } from '@/lib/explorer/verdict';
import { DASH, type Formats } from '@/lib/i18n/formats';
import { AnalysisLink } from '../analysis/analysis-link';
import styles from '../view/explorer.module.css';

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

/**
 * The service's decimals exactly as it sent them (two places), never re-rounded, in the reader's notation, with
 * their unit: a percent as the table and the charts write one (`93.40%`, `93,40 %`).
 */
function given(f: Formats, v: string | null, unit = ''): string {
  if (v === null) return DASH;
  const places = v.split('.')[1]?.length ?? 0;
  if (unit === '%') return f.percent(v, places);
  return `${f.decimal(v, places)} ${unit}`.trimEnd();
}

/** One batch for an agronomist: labelled fields with units, the target verdict, the API names on demand. */
export function BatchDetail({ row, missing, rows, zone, targets, onShow, onClose }: Props) {
  const t = useTranslations('explorer.detail');
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
    if (e.key === 'ArrowLeft' && prev) {
      e.preventDefault();
      goPrev();
    }
    if (e.key === 'ArrowRight' && next) {
      e.preventDefault();
      goNext();
    }
  }

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      onClose={onClose}
      onKeyDown={onKeyDown}
      aria-labelledby="batch-detail-title"
    >
      {row ? (
        <>
          <h2 id="batch-detail-title" className={styles.dialogTitle}>
            {row.name}
          </h2>
          <Verdicts row={row} targets={targets} />
          <BatchFields row={row} zone={zone} />
          <details className={styles.apiFields}>
            <summary>{t('apiFields')}</summary>
            <dl className={styles.fields}>
              {BATCH_FIELDS.map((field) => (
                <div key={field}>
                  <dt>
                    <code>{field}</code>
                  </dt>
                  <dd>
                    <code>{row.field(field) === null ? 'null' : String(row.field(field))}</code>
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
              {t('notInRange')}
            </h2>
            <p>{t.rich('notInRangeText', { id: () => <code>{missing}</code> })}</p>
          </>
        )
      )}
      <form method="dialog" className={styles.dialogActions}>
        {row && (
          <>
            <button
              ref={prevButton}
              className="button"
              type="button"
              onClick={goPrev}
              disabled={!prev}
              aria-keyshortcuts="ArrowLeft"
            >
              {t('previous')}
            </button>
            <button
              ref={nextButton}
              className="button"
              type="button"
              onClick={goNext}
              disabled={!next}
              aria-keyshortcuts="ArrowRight"
            >
              {t('next')}
            </button>
          </>
        )}
        <button className="button" type="submit" autoFocus>
          {t('close')}
        </button>
      </form>
    </dialog>
  );
}

function Verdicts({ row, targets }: { row: Row; targets: Targets }) {
  const say = useTranslations('explorer.verdict');
  const f = useFormats();
  // The germination verdict always; the usable-seedling target and the CV threshold are optional: said when set.
  const verdicts = TARGET_METRICS.map((m) => verdict(row, targets, m)).filter(
    (v) => v.metric === 'germination' || v.target !== null,
  );
  return (
    <ul className={styles.verdicts}>
      {verdicts.map((v) => (
        <li key={v.metric} className={v.misses ? styles.verdictBelow : undefined}>
          {v.misses ? (v.metric === 'cv' ? '▲ ' : '▼ ') : ''}
          {sayVerdict(v, say, f.percentUpTo)}
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
  const t = useTranslations('explorer.detail');
  const f = useFormats();
  const b = row.batch;
  const localZone = zone === 'UTC' ? null : zone;
  return (
    <>
      <Section
        title={t('batch')}
        fields={[
          [
            t('created'),
            <>
              {localZone && (
                <>
                  {f.dateTime(row.time, localZone)} ({localZone})<br />
                </>
              )}
              {f.dateTime(row.time, 'UTC')}
            </>,
          ],
          [t('crop'), b.crop_type || DASH],
          [t('batchId'), b.batch_id],
        ]}
      />
      <Section
        title={t('germination')}
        fields={[
          [t('germinationRate'), given(f, b.avg_germination_rate, '%')],
          [t('germinatedPerTray'), given(f, b.avg_germinated_seedlings)],
          [t('nonGerminatedPerTray'), given(f, b.avg_non_germinated_seedlings)],
        ]}
      />
      <Section
        title={t('usable')}
        fields={[
          [t('usableRate'), given(f, b.avg_usable_seedling_rate, '%')],
          [t('usablePerTray'), given(f, b.avg_usable_seedlings)],
          [t('nonUsablePerTray'), given(f, b.avg_non_usable_cells)],
        ]}
      />
      <Section
        title={t('tray')}
        fields={[
          [t('cellsPerTray'), f.int(b.total_cells_per_tray)],
          [t('cv'), given(f, b.avg_coefficient_of_variation, '%')],
          [t('medianSize'), given(f, b.avg_median_seedling_size_mm2, 'mm²')],
          [t('images'), f.int(b.number_of_images)],
        ]}
      />
      <Section
        title={t('scan')}
        fields={[
          [t('warnings'), b.warnings ? t('warningYes') : t('warningNo')],
          [t('comment'), b.comment || DASH],
          [
            t('scannedBy'),
            b.scanned_by_email ? <a href={`mailto:${b.scanned_by_email}`}>{b.scanned_by_email}</a> : DASH,
          ],
          [t('analysis'), <AnalysisLink key="a" link={b.analysis_link} />],
        ]}
      />
    </>
  );
}
