'use client';

import { ApiFailure } from '@/lib/explorer/api-failure';
import { fmtCount } from './format';
import styles from './explorer.module.css';

type Props = { loaded: number; shown: number; complete: boolean; stopped: boolean };

/** The count the page shows, and whether it is the whole range: exactly "N batches" only once it is. */
export function LoadStatus({ loaded, shown, complete, stopped }: Props) {
  const count = `${fmtCount(shown)} ${shown === 1 ? 'batch' : 'batches'}`;
  return (
    <div className={styles.status}>
      <p role="status" className={styles.count}>
        {complete ? count : `${count} (incomplete)`}
      </p>
      {!complete && <p className={styles.progress}>{stopped ? 'Loading stopped.' : `Loading… ${fmtCount(loaded)} batches so far.`}</p>}
    </div>
  );
}

type ProblemProps = { error: Error; loaded: number; onRetry: () => void };

/** Why loading stopped, and a Retry that resumes where it stopped. */
export function LoadProblem({ error, loaded, onRetry }: ProblemProps) {
  // No automatic retry here: the server has already retried the service within its deadline (one layer of
  // retries), so the person decides when to try again; the service's Retry-After is shown as advice.
  const waitS = error instanceof ApiFailure && error.status === 503 ? error.retryAfterS : null;
  return (
    <div role="alert" className={styles.error}>
      <p>{describe(error, loaded)}</p>
      {waitS !== null && <p>The service suggests trying again in {waitS} s.</p>}
      <button type="button" className="button" onClick={onRetry}>
        {loaded > 0 ? 'Retry and continue loading' : 'Retry'}
      </button>
    </div>
  );
}

function describe(error: Error, loaded: number): string {
  const kept = loaded > 0 ? ' The batches already loaded are kept.' : '';
  if (!(error instanceof ApiFailure)) return 'Loading stopped unexpectedly.';
  if (error.status === 503) return `The Batch Data Service is unavailable right now.${kept}`;
  if (error.status === 504) return `The Batch Data Service did not answer in time.${kept}`;
  // 502 is every way the service can fail a request (its own 500, an unreadable answer, a refused fresh token):
  // our server's sentence says which.
  if (error.status === 502) return `${asSentence(error.detail)}${kept}`;
  if (error.status === 422) return `The request was refused: ${error.detail}`;
  if (error.status === 0) return error.detail;
  return `Loading stopped: ${error.detail}`;
}

/** A detail as a sentence of its own: capital first letter, closing full stop. */
function asSentence(detail: string): string {
  const text = detail.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
