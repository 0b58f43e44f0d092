import type { ReactNode } from 'react';
import type { Zone } from '@/lib/explorer/date-range';
import type { Summary } from '@/lib/explorer/rows';
import { fmtCount, fmtPercent } from './format';
import { IncompleteNote, type Completeness } from './incomplete-note';
import styles from './explorer.module.css';

type Props = {
  summary: Summary;
  completeness: Completeness;
  zone: Zone;
  /** False while the organisation's targets are still on their way: no verdicts until they are here. */
  judged: boolean;
  problem?: ReactNode;
};

/** Count, weighted means, batches below their crop's target and warning share of the rows the table shows. */
export function SummaryCards({ summary, completeness, zone, judged, problem }: Props) {
  const cards: [string, string][] = [
    ['Batches', fmtCount(summary.count)],
    ['Germination (weighted)', fmtPercent(summary.germination)],
    ['Usable seedlings (weighted)', fmtPercent(summary.usable)],
    ['Below target', !judged ? '…' : summary.belowShare === null ? fmtCount(summary.below) : `${fmtCount(summary.below)} (${fmtPercent(summary.belowShare * 100)})`],
    ['With warnings', summary.warningShare === null ? '—' : fmtPercent(summary.warningShare * 100)],
  ];
  return (
    <section aria-label="Summary" className={styles.summaryBox}>
      <IncompleteNote of={completeness} zone={zone} what="The summary">
        {problem}
      </IncompleteNote>
      <dl className={styles.summary}>
        {cards.map(([label, value]) => (
          <div key={label} className={styles.card}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
