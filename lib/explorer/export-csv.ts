import { BATCH_FIELDS } from '../contract';
import { csvRow, csvRows } from '../csv';
import type { Zone } from './date-range';
import { describeSpans, type Span } from './missing';
import type { Row } from './rows';

/** The rows exactly as the table shows them (its filter, its order), with the service's 18 fields. */
export function rowsToCsv(rows: readonly Row[]): string {
  return csvRow(BATCH_FIELDS) + csvRows(rows.map((r) => r.batch), BATCH_FIELDS);
}

/**
 * An export of a view whose batches have not all arrived says so in its name (`…-INCOMPLETE.csv`) and in its
 * first line, which names what is missing.
 */
export function exportFile(
  name: string,
  csv: string,
  view: { complete: boolean; loaded: number; missing: readonly Span[]; zone: Zone },
): { name: string; text: string } {
  if (view.complete) return { name, text: csv };
  const { loaded, missing, zone } = view;
  const warning = `INCOMPLETE: ${loaded} batches loaded; not loaded: ${describeSpans(missing, zone, Infinity)}`;
  return { name: name.replace(/\.csv$/, '-INCOMPLETE.csv'), text: csvRow([warning]) + csv };
}
