'use client';

import type { ReactNode } from 'react';
import type { Zone } from '@/lib/explorer/date-range';
import { describeSpans, type Span } from '@/lib/explorer/missing';
import { fmtCount } from './format';
import styles from './explorer.module.css';

export type Completeness = {
  /** Not loaded yet (empty once every batch of the range has arrived). */
  missing: readonly Span[];
  loaded: number;
  /** The load stopped (and waits for Retry) rather than still running. */
  stopped: boolean;
  onRetry: () => void;
};

type Props = {
  of: Completeness;
  zone: Zone;
  /** What the note is about, as the subject of its sentence: "The summary", "These charts". */
  what: string;
  /** The name of this note's own Retry button; none when `children` carry the Retry. */
  retryLabel?: string;
  children?: ReactNode;
};

/**
 * The visible warning on a summary or chart whose batches have not all arrived: what is missing (the spans the
 * server still names as pending), and the way to get it once loading stopped. Nothing when complete.
 */
export function IncompleteNote({ of, zone, what, retryLabel, children }: Props) {
  if (of.missing.length === 0 && !children) return null;
  const verb = /s$/.test(what) ? 'cover' : 'covers';
  const spans = describeSpans(of.missing, zone);
  return (
    <div className={styles.incomplete}>
      {of.missing.length > 0 && (
        <p>
          <strong className={styles.incompleteTag}>Incomplete</strong>{' '}
          {of.stopped
            ? `${what} ${verb} only the ${fmtCount(of.loaded)} batches loaded before loading stopped. Not loaded: ${spans}.`
            : `${what} ${verb} the ${fmtCount(of.loaded)} batches loaded so far. Still loading: ${spans}.`}
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
