import type { Summary } from '@/lib/explorer/rows';
import { fmtCount, fmtPercent } from './format';
import styles from './explorer.module.css';

/** Count, weighted means and warning share of the rows the table shows. */
export function SummaryCards({ summary }: { summary: Summary }) {
  const cards: [string, string][] = [
    ['Batches', fmtCount(summary.count)],
    ['Germination (weighted)', fmtPercent(summary.germination)],
    ['Usable seedlings (weighted)', fmtPercent(summary.usable)],
    ['With warnings', summary.warningShare === null ? '—' : fmtPercent(summary.warningShare * 100)],
  ];
  return (
    <dl className={styles.summary}>
      {cards.map(([label, value]) => (
        <div key={label} className={styles.card}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
