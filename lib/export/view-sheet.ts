import type { Targets } from '../contract/targets';
import { ALL, isRolling, NOW, resolveRange, todayIn } from '../explorer/range/rolling';
import { belowChoice, type BelowFilter } from '../explorer/targets/misses';
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
  /** The Below target filter (`1`: any target). */
  below?: BelowFilter;
  /** The drill-downs as their chips read (drillChips, in the reader's language). */
  drill?: readonly string[];
  sort?: string;
  dir?: string;
  group?: string;
  targets: Targets;
  /**
   * The targets in force as the reader reads them: the general ones, then each crop's with where each comes from
   * (targets/target-lines.ts), the same from the page and from the server's export.
   */
  targetsText: string;
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
    [L.range, rangeText(v)],
    [L.zone, v.zone],
    [L.search, v.q || L.none],
    [L.crop, v.crop ?? L.none],
    [L.warningsOnly, yesNo(!!v.warn)],
    [L.belowTarget, v.below ? `${v.words.yes}: ${v.words.belowKinds[belowChoice(v.below)]}` : v.words.no],
    [L.drill, v.drill?.join('; ') || L.none],
    [L.sort, v.sort ? `${v.sort} (${v.dir === 'asc' ? L.ascending : L.descending})` : L.none],
    [L.targets, v.targetsText],
    [L.grouping, v.group ?? L.none],
    [L.columns, v.columns.map((c) => c.header(v)).join(', ')],
    [L.batches, String(v.batches)],
    [L.made, `${wallClockText(wallClockIn(v.zone)(v.made))} (${v.zone})`],
    [L.complete, v.incomplete === null ? v.words.yes : `${v.words.no}: ${v.incomplete}`],
  ];
  return lines;
}

/**
 * The range as the days it covered when the file was made (in the view's zone), and for a rolling range the
 * link's notation after them: the file says which days it holds however late it is read.
 */
function rangeText(v: ExportView): string {
  const L = v.words.view;
  const [from, to] = [v.from ?? ALL, v.to ?? NOW];
  if (from === ALL && to === NOW) return L.allTime;
  const days = resolveRange(from, to, todayIn(v.zone, v.made));
  const text = `${days.from ?? '…'} – ${days.to ?? L.now}`;
  return isRolling(from, to) ? `${text} (${from} – ${to})` : text;
}
