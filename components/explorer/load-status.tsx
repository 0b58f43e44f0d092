'use client';

import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import { ApiFailure } from '@/lib/explorer/api-failure';
import type { ExplorerT } from './use-explorer-words';
import { useFailureText } from './use-failure-text';
import styles from './explorer.module.css';

type Props = { loaded: number; shown: number; complete: boolean; stopped: boolean };

/** The count the page shows, and whether it is the whole range: exactly "N batches" only once it is. */
export function LoadStatus({ loaded, shown, complete, stopped }: Props) {
  const t = useTranslations('explorer.status');
  const f = useFormats();
  const count = { n: shown, count: f.count(shown) };
  return (
    <div className={styles.status}>
      <p role="status" className={styles.count}>
        {complete ? t('count', count) : t('countIncomplete', count)}
      </p>
      {!complete && <p className={styles.progress}>{stopped ? t('stopped') : t('soFar', { n: loaded, count: f.count(loaded) })}</p>}
    </div>
  );
}

type ProblemProps = { error: Error; loaded: number; onRetry: () => void };

/** Why loading stopped, and a Retry that resumes where it stopped. */
export function LoadProblem({ error, loaded, onRetry }: ProblemProps) {
  const t = useTranslations('explorer');
  const failureText = useFailureText();
  // No automatic retry here: the server has already retried the service within its deadline (one layer of
  // retries), so the person decides when to try again; the service's Retry-After is shown as advice.
  const waitS = error instanceof ApiFailure && error.status === 503 ? error.retryAfterS : null;
  return (
    <div role="alert" className={styles.error}>
      <p>{describe(error, loaded, t, failureText)}</p>
      {waitS !== null && <p>{t('status.waitAdvice', { seconds: String(waitS) })}</p>}
      <button type="button" className="button" onClick={onRetry}>
        {loaded > 0 ? t('status.retryContinue') : t('status.retry')}
      </button>
    </div>
  );
}

function describe(error: Error, loaded: number, t: ExplorerT, failureText: (error: ApiFailure) => string): string {
  const kept = (sentence: string) => (loaded > 0 ? `${sentence} ${t('failure.kept')}` : sentence);
  if (!(error instanceof ApiFailure)) return t('failure.unexpected');
  if (error.status === 503) return kept(t('failure.unavailable'));
  if (error.status === 504) return kept(t('failure.timeout'));
  // 502 is every way the service can fail a request (its own 500, an unreadable answer, a refused fresh token):
  // our server's sentence says which (in English: the API's words).
  if (error.status === 502) return kept(t('failure.service', { detail: asSentence(error.detail) }));
  if (error.status === 422) return t('failure.refused', { detail: error.detail });
  if (error.status === 0) return failureText(error);
  return t('failure.stopped', { detail: error.detail });
}

/** A detail as a sentence of its own: capital first letter, closing full stop. */
function asSentence(detail: string): string {
  const text = detail.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
