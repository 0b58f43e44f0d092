'use client';

import type { ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import type { Zone } from '@/lib/explorer/date-range';
import type { Span } from '@/lib/explorer/missing';
import { useDescribeSpans } from '../shared/use-explorer-words';
import styles from '../view/explorer.module.css';

export type Completeness = {
  /** Not loaded yet (empty once every batch of the range has arrived). */
  missing: readonly Span[];
  loaded: number;
  /** The load stopped (and waits for Retry) rather than still running. */
  stopped: boolean;
  onRetry: () => void;
  /** The rows are a copy of this time not yet confirmed by the service (range-reopen.ts). */
  asOf?: number;
};

/**
 * What a note can be about, as its English subject names it, and the messages that say it in each language
 * (`explorer.incomplete.*.<key>`): the subject is part of a whole sentence, since other languages inflect
 * the verb and the article with it.
 */
const SUBJECTS = {
  'The summary': 'summary',
  'The grouped summary': 'groupedSummary',
  'These charts': 'charts',
  'The control charts': 'controlCharts',
  'This chart': 'chart',
} as const;

type Props = {
  of: Completeness;
  zone: Zone;
  /** What the note is about. */
  what: keyof typeof SUBJECTS;
  /** The name of this note's own Retry button; none when `children` carry the Retry. */
  retryLabel?: string;
  children?: ReactNode;
};

/**
 * The visible warning on a summary or chart whose batches have not all arrived: what is missing (the spans the
 * server still names as pending), and the way to get it once loading stopped. Nothing when complete.
 */
export function IncompleteNote({ of, zone, what, retryLabel, children }: Props) {
  const t = useTranslations('explorer');
  const f = useFormats();
  const describeSpans = useDescribeSpans();
  if (of.missing.length === 0 && !children) return null;
  const values = { count: f.count(of.loaded), spans: describeSpans(of.missing, zone) };
  return (
    <div className={styles.incomplete}>
      {of.missing.length > 0 && (
        <p>
          <strong className={styles.incompleteTag}>{t('incompleteTag')}</strong>{' '}
          {of.stopped
            ? t(`incomplete.stopped.${SUBJECTS[what]}`, values)
            : t(`incomplete.loading.${SUBJECTS[what]}`, values)}
        </p>
      )}
      {of.stopped && retryLabel && (
        <button type="button" className="button" onClick={of.onRetry}>
          {retryLabel}
        </button>
      )}
      {children}
    </div>
  );
}
