import type { ReactNode } from 'react';
import { countChange, ppChange } from '@/lib/explorer/compare';
import type { Zone } from '@/lib/explorer/date-range';
import type { Summary } from '@/lib/explorer/rows';
import { fmtCount, fmtPercent } from './format';
import { IncompleteNote, type Completeness } from './incomplete-note';
import type { CardComparison } from './use-comparison';
import styles from './explorer.module.css';
import own from './summary-cards.module.css';

type Props = {
  summary: Summary;
  completeness: Completeness;
  zone: Zone;
  /** False while the organisation's targets are still on their way: no verdicts until they are here. */
  judged: boolean;
  problem?: ReactNode;
  /** The period of Compare with (absent: nothing compared). */
  comparison?: CardComparison;
};

const share = (v: number | null) => (v === null ? null : v * 100);
const belowText = (s: Summary) => (s.belowShare === null ? fmtCount(s.below) : `${fmtCount(s.below)} (${fmtPercent(s.belowShare * 100)})`);

/** Each card: title, value, and (comparing) the change and the earlier value. */
function cardsOf(s: Summary, judged: boolean, before: Summary | null): { label: string; value: string; change?: string; was?: string }[] {
  const changes = (...parts: (string | null)[]) => parts.filter((p) => p !== null).join(', ') || '—';
  return [
    { label: 'Batches', value: fmtCount(s.count), ...(before && { change: changes(countChange(s.count, before.count)), was: fmtCount(before.count) }) },
    { label: 'Germination (weighted)', value: fmtPercent(s.germination), ...(before && { change: changes(ppChange(s.germination, before.germination)), was: fmtPercent(before.germination) }) },
    { label: 'Usable seedlings (weighted)', value: fmtPercent(s.usable), ...(before && { change: changes(ppChange(s.usable, before.usable)), was: fmtPercent(before.usable) }) },
    {
      label: 'Below target',
      value: !judged ? '…' : belowText(s),
      ...(before && judged && { change: changes(countChange(s.below, before.below), ppChange(share(s.belowShare), share(before.belowShare))), was: before.belowShare === null ? fmtCount(before.below) : `${fmtCount(before.below)}, ${fmtPercent(before.belowShare * 100)}` }),
    },
    {
      label: 'With warnings',
      value: s.warningShare === null ? '—' : fmtPercent(s.warningShare * 100),
      ...(before && { change: changes(ppChange(share(s.warningShare), share(before.warningShare))), was: fmtPercent(share(before.warningShare)) }),
    },
  ];
}

/** What is compared, or why nothing is (yet). */
function ComparisonCaption({ of }: { of: CardComparison }) {
  if (of.kind === 'unavailable') return <p className={own.caption}>{of.reason}</p>;
  if (of.summary) return <p className={own.caption}>Changes against {of.label}: rates in percentage points, counts in percent.</p>;
  return (
    <p className={own.caption}>
      <strong className={styles.incompleteTag}>Incomplete</strong>{' '}
      {of.stopped
        ? `The comparison with ${of.label} stopped loading after ${fmtCount(of.loaded)} batches: no changes are shown.`
        : `Comparing with ${of.label}: changes appear once every batch of both periods has arrived (${fmtCount(of.loaded)} of the earlier period so far).`}
      {of.stopped && (
        <>
          {' '}
          <button type="button" className="button" onClick={of.onRetry}>
            Retry the comparison
          </button>
        </>
      )}
    </p>
  );
}

/**
 * Count, weighted means, batches below their crop's target and warning share of the rows the table shows.
 * Comparing, each card's `dd` ends with a `<small>`: the change (`+1.2 pp`, `−3.4 %`), then the earlier value
 * (`was 90.1%`); a caption under the cards names the period compared with.
 */
export function SummaryCards({ summary, completeness, zone, judged, problem, comparison }: Props) {
  const before = comparison?.kind === 'window' ? comparison.summary : null;
  return (
    <section aria-label="Summary" className={styles.summaryBox}>
      <IncompleteNote of={completeness} zone={zone} what="The summary">
        {problem}
      </IncompleteNote>
      <dl className={styles.summary}>
        {cardsOf(summary, judged, before).map(({ label, value, change, was }) => (
          <div key={label} className={styles.card}>
            <dt>{label}</dt>
            <dd>
              {value}
              {change !== undefined && (
                <small className={own.change}>
                  {change} <span className={own.was}>(was {was})</span>
                </small>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {comparison && <ComparisonCaption of={comparison} />}
    </section>
  );
}
