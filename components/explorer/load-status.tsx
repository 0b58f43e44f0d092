'use client';

import { useEffect, useRef, useState } from 'react';
import { ApiFailure } from '@/lib/explorer/api-failure';
import { fmtCount } from './format';
import styles from './explorer.module.css';

type Props = { loaded: number; shown: number; complete: boolean; error: Error | null; onRetry: () => void };

/** Progress while pages arrive, the final count, and a retry that resumes where loading stopped. */
export function LoadStatus({ loaded, shown, complete, error, onRetry }: Props) {
  // A 503 retries by itself when the server's Retry-After has passed; other errors wait for the person.
  const deadline = error instanceof ApiFailure && error.status === 503 ? error.at + (error.retryAfterS ?? 5) * 1000 : null;
  const [now, setNow] = useState(() => Date.now());
  const retry = useRef(onRetry);
  useEffect(() => {
    retry.current = onRetry;
  }, [onRetry]);
  useEffect(() => {
    if (deadline === null) return;
    // Fires once per failure: a new failure brings a new deadline.
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= deadline) {
        clearInterval(timer);
        retry.current();
      }
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);
  const countdown = deadline === null ? null : Math.max(0, Math.ceil((deadline - now) / 1000));

  const text = complete ? `${fmtCount(shown)} ${shown === 1 ? 'batch' : 'batches'}` : `Loaded ${fmtCount(loaded)} batches…`;
  return (
    <div className={styles.status}>
      <p role="status" className={styles.count}>
        {error ? `Loaded ${fmtCount(loaded)} batches (stopped)` : text}
      </p>
      {error && (
        <div role="alert" className={styles.error}>
          <p>{describe(error)}</p>
          {countdown !== null && countdown > 0 && <p>Retrying in {countdown} s…</p>}
          <button type="button" className="button" onClick={onRetry}>
            {loaded > 0 ? 'Retry and continue loading' : 'Retry'}
          </button>
        </div>
      )}
    </div>
  );
}

function describe(error: Error): string {
  if (!(error instanceof ApiFailure)) return 'Loading stopped unexpectedly.';
  if (error.status === 503) return 'The Batch Data Service is unavailable right now. The batches already loaded are kept.';
  if (error.status === 504) return 'The Batch Data Service did not answer in time. The batches already loaded are kept.';
  if (error.status === 502) return 'The Batch Data Service sent something we could not read. The batches already loaded are kept.';
  if (error.status === 422) return `The request was refused: ${error.detail}`;
  if (error.status === 0) return error.detail;
  return `Loading stopped: ${error.detail}`;
}
