'use client';

import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import { ApiFailure } from '@/lib/explorer/api-failure';
import { formatDay, type Zone } from '@/lib/explorer/date-range';
import type { ExplorerT } from '../shared/use-explorer-words';
import { useFailureText } from '../shared/use-failure-text';
import styles from '../view/explorer.module.css';

/** A copy of the range shown before the service confirmed it (range-reopen.ts). */
export type Copy = { asOf: number; refreshing: boolean; failed: ApiFailure | null; zone: Zone; onRefresh: () => void };

type Props = { loaded: number; shown: number; complete: boolean; stopped: boolean; copy?: Copy };

/** The count the page shows, and whether it is the whole range: exactly "N batches" only once it is. */
export function LoadStatus({ loaded, shown, complete, stopped, copy }: Props) {
  const t = useTranslations('explorer.status');
  const f = useFormats();
  const count = { n: shown, count: f.count(shown) };
  return (
    <div className={styles.status}>
      <p role="status" className={styles.count}>
        {complete ? t('count', count) : t('countIncomplete', count)}
      </p>
      {!complete && (
        <p className={styles.progress}>{stopped ? t('stopped') : t('soFar', { n: loaded, count: f.count(loaded) })}</p>
      )}
      {copy && <AsOf copy={copy} />}
    </div>
  );
}

/** "As of 14:02" (the day too when it was not today): the moment the rows shown were loaded. */
export function useAsOfText(): (asOf: number, zone: Zone) => string {
  const f = useFormats();
  return (asOf, zone) =>
    formatDay(asOf, zone) === formatDay(Date.now(), zone) ? f.time(asOf, zone) : f.dateTime(asOf, zone);
}

/** On paper (the status line is not printed): the report's rows are a copy as of then, checked or not. */
export function AsOfPrintNote({ copy }: { copy: Copy }) {
  const t = useTranslations('explorer.status');
  const time = useAsOfText()(copy.asOf, copy.zone);
  return (
    <p className={`${styles.incomplete} print-only`}>{copy.failed ? t('asOfFailed', { time }) : t('asOf', { time })}</p>
  );
}

/**
 * Rows that are a copy of an earlier load: as of when, while they are checked; and, when the check failed,
 * plainly that they may be out of date, why, and a way to try again.
 */
function AsOf({ copy }: { copy: Copy }) {
  const t = useTranslations('explorer');
  const failureText = useFailureText();
  const time = useAsOfText()(copy.asOf, copy.zone);
  if (copy.failed) {
    return (
      <div role="alert" className={styles.error} data-testid="as-of">
        <p>{t('status.asOfFailed', { time })}</p>
        <p>{describe(copy.failed, 0, t, failureText)}</p>
        <WaitAdvice error={copy.failed} t={t} />
        <button type="button" className="button" onClick={copy.onRefresh}>
          {t('status.refresh')}
        </button>
      </div>
    );
  }
  return (
    <p className={styles.progress} data-testid="as-of">
      {copy.refreshing ? t('status.asOfRefreshing', { time }) : t('status.asOf', { time })}
    </p>
  );
}

type ProblemProps = { error: Error; loaded: number; onRetry: () => void };

/** Why loading stopped, and a Retry that resumes where it stopped. */
export function LoadProblem({ error, loaded, onRetry }: ProblemProps) {
  const t = useTranslations('explorer');
  const failureText = useFailureText();
  // No automatic retry here: the server has already retried the service within its deadline (one layer of
  // retries), so the person decides when to try again; a Retry-After is shown as advice.
  return (
    <div role="alert" className={styles.error}>
      <p>{describe(error, loaded, t, failureText)}</p>
      <WaitAdvice error={error} t={t} />
      <button type="button" className="button" onClick={onRetry}>
        {loaded > 0 ? t('status.retryContinue') : t('status.retry')}
      </button>
    </div>
  );
}

/** When to try again: the service's Retry-After after a 503, ours when too many ranges were loading (429). */
function WaitAdvice({ error, t }: { error: Error; t: ExplorerT }) {
  if (!(error instanceof ApiFailure) || error.retryAfterS === null) return null;
  const seconds = String(error.retryAfterS);
  if (error.status === 503) return <p>{t('status.waitAdvice', { seconds })}</p>;
  if (error.status === 429) return <p>{t('status.busyAdvice', { seconds })}</p>;
  return null;
}

function describe(error: Error, loaded: number, t: ExplorerT, failureText: (error: ApiFailure) => string): string {
  const kept = (sentence: string) => (loaded > 0 ? `${sentence} ${t('failure.kept')}` : sentence);
  if (!(error instanceof ApiFailure)) return t('failure.unexpected');
  if (error.status === 503) return kept(t('failure.unavailable'));
  if (error.status === 504) return kept(t('failure.timeout'));
  // Our own limit on ranges loading at once (`session: …` or `organisation: …`, lib/server/load-limits).
  if (error.status === 429)
    return kept(t(error.detail.startsWith('session:') ? 'failure.busySession' : 'failure.busyOrganisation'));
  // 502 is every way the service can fail a request (its own 500, an unreadable answer, a refused fresh token):
  // our server's sentence says which (in English: the API's words).
  if (error.status === 502) return kept(t('failure.service', { detail: asSentence(error.detail) }));
  if (error.status === 422) return t('failure.refused', { detail: error.detail });
  if (error.status === 0) return kept(failureText(error));
  return t('failure.stopped', { detail: error.detail });
}

/** A detail as a sentence of its own: capital first letter, closing full stop. */
function asSentence(detail: string): string {
  const text = detail.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
