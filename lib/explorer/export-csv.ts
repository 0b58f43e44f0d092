import { BATCH_FIELDS } from '../contract';
import { csvRow, csvRows } from '../csv';
import type { Row } from './rows';

/** The rows exactly as the table shows them (its filter, its order), with the service's 18 fields. */
export function rowsToCsv(rows: readonly Row[]): string {
  return csvRow(BATCH_FIELDS) + csvRows(rows.map((r) => r.batch), BATCH_FIELDS);
}
