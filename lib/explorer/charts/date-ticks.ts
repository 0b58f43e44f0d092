import type { Formats } from '../../i18n/formats';
import { dayIn, type Zone } from '../zones';

/**
 * The labels of date ticks along an axis: the year written out in full on the first tick and wherever it
 * changes (`Dec 29, 2025`, `Jan 5, 2026`, `Jan 12`), never as two digits (`Nov 28, 24` reads as the 24th);
 * months as `Nov 2025`. In the reader's locale and the view's zone.
 */
export function dateTickLabels(ticks: readonly number[], zone: Zone, f: Formats, months = false): Map<number, string> {
  const labels = new Map<number, string>();
  let year = NaN;
  for (const t of ticks) {
    if (months) {
      labels.set(t, f.monthYear(t, zone));
      continue;
    }
    const y = dayIn(t, zone).y;
    labels.set(t, y === year ? f.dayMonth(t, zone) : f.shortDate(t, zone));
    year = y;
  }
  return labels;
}
