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

export type ViewCompleteness = {
  complete: boolean;
  loaded: number;
  missing: readonly Span[];
  zone: Zone;
  /** The rows are a copy of this time (ms) that the service has not confirmed yet (a range reopened from the cache). */
  asOf?: number;
};

/** `2026-11-23 14:02` in `zone` (UTC named), for a note in a file read anywhere. */
function stamp(ms: number, zone: Zone): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .formatToParts(ms)
    .reduce<Record<string, string>>((out, p) => ({ ...out, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${zone}`;
}

/**
 * What an export of a view whose batches have not all arrived says first, or of rows that are a copy not yet
 * confirmed by the service (as of when); null when the view is complete and current.
 */
export function incompleteNote(view: ViewCompleteness): string | null {
  if (!view.complete)
    return `INCOMPLETE: ${view.loaded} batches loaded; not loaded: ${describeSpans(view.missing, view.zone, Infinity)}`;
  if (view.asOf !== undefined)
    return `AS OF ${stamp(view.asOf, view.zone)}: ${view.loaded} batches as loaded then, not yet refreshed; they may have changed since`;
  return null;
}

/** `batches-….csv` → `batches-…-INCOMPLETE.csv` (or `-AS-OF-1402`, any extension) when the view is incomplete or a copy. */
export function exportName(name: string, view: ViewCompleteness): string {
  if (!view.complete) return name.replace(/(\.[a-z]+)$/, '-INCOMPLETE$1');
  if (view.asOf !== undefined)
    return name.replace(/(\.[a-z]+)$/, `-AS-OF-${stamp(view.asOf, view.zone).slice(11, 16).replace(':', '')}$1`);
  return name;
}

/**
 * An export of a view whose batches have not all arrived says so in its name (`…-INCOMPLETE.csv`) and in its
 * first line, which names what is missing.
 */
export function exportFile(name: string, csv: string, view: ViewCompleteness): { name: string; text: string } {
  const note = incompleteNote(view);
  return note === null ? { name, text: csv } : { name: exportName(name, view), text: csvRow([note]) + csv };
}
