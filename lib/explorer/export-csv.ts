import { BATCH_FIELDS } from '../contract';
import { csvRow } from '../csv';
import type { Zone } from './date-range';
import { describeSpans, type Span } from './missing';
import type { Row } from './rows';

/** The rows exactly as the table shows them (its filter, its order), with the service's 18 fields. */
export function rowsToCsv(rows: readonly Row[]): string {
  // Field by field from the store: no Batch object per row (a million of them would all be alive at once).
  let out = csvRow(BATCH_FIELDS);
  for (const r of rows) out += csvRow(BATCH_FIELDS.map((f) => r.field(f)));
  return out;
}

export type ViewCompleteness = { complete: boolean; loaded: number; missing: readonly Span[]; zone: Zone };

/** What an export of a view whose batches have not all arrived says first, or null when they all did. */
export function incompleteNote(view: ViewCompleteness): string | null {
  if (view.complete) return null;
  return `INCOMPLETE: ${view.loaded} batches loaded; not loaded: ${describeSpans(view.missing, view.zone, Infinity)}`;
}

/** `batches-….csv` → `batches-…-INCOMPLETE.csv` (any extension) when the view is incomplete. */
export function exportName(name: string, view: ViewCompleteness): string {
  return view.complete ? name : name.replace(/(\.[a-z]+)$/, '-INCOMPLETE$1');
}

/**
 * An export of a view whose batches have not all arrived says so in its name (`…-INCOMPLETE.csv`) and in its
 * first line, which names what is missing.
 */
export function exportFile(name: string, csv: string, view: ViewCompleteness): { name: string; text: string } {
  const note = incompleteNote(view);
  return note === null ? { name, text: csv } : { name: exportName(name, view), text: csvRow([note]) + csv };
}
