import { formatTargetsParam, type Targets } from '../contract/targets';
import type { Zone } from '../explorer/zones';
import { wallClockIn, wallClockText, type ExportColumn } from './columns';
import type { ExportWords } from './strings';

/** What the view sheet describes: the state of the explorer when the file was made. */
export type ExportView = {
  /** The organisation's name: whose batches these are. */
  organisation: string;
  from?: string;
  to?: string;
  zone: Zone;
  words: ExportWords;
  q?: string;
  crop?: string;
  warn?: string;
  below?: string;
  /** The drill-downs as their chips read (drillChips, in the reader's language). */
  drill?: readonly string[];
  sort?: string;
  dir?: string;
  group?: string;
  targets: Targets;
  /** The targets as the reader reads them (the browser's words); else written as the URL's `targets=`. */
  targetsText?: string;
  columns: readonly ExportColumn[];
  batches: number;
  /** When the file was made (ms). */
  made: number;
  /** The INCOMPLETE note, or null when every batch of the range arrived. */
  incomplete: string | null;
};

/** The view sheet's lines, label and value, in the order a person reads them. */
export function viewLines(v: ExportView): [string, string][] {
  const L = v.words.view;
  const yesNo = (b: boolean) => (b ? v.words.yes : v.words.no);
  const lines: [string, string][] = [
    [L.organisation, v.organisation],
    [L.range, v.from || v.to ? `${v.from ?? '…'} – ${v.to ?? L.now}` : L.allTime],
    [L.zone, v.zone],
    [L.search, v.q || L.none],
    [L.crop, v.crop ?? L.none],
    [L.warningsOnly, yesNo(!!v.warn)],
    [L.belowTarget, yesNo(!!v.below)],
    [L.drill, v.drill?.join('; ') || L.none],
    [L.sort, v.sort ? `${v.sort} (${v.dir === 'asc' ? L.ascending : L.descending})` : L.none],
    [L.targets, v.targetsText ?? formatTargetsParam(v.targets)],
    [L.grouping, v.group ?? L.none],
    [L.columns, v.columns.map((c) => c.header(v)).join(', ')],
    [L.batches, String(v.batches)],
    [L.made, `${wallClockText(wallClockIn(v.zone)(v.made))} (${v.zone})`],
    [L.complete, v.incomplete === null ? v.words.yes : `${v.words.no}: ${v.incomplete}`],
  ];
  return lines;
}
