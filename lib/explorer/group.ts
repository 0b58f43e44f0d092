import type { Targets } from '../contract';
import { csvCell, csvNumber } from '../csv';
import { API_DIALECT, BOM, type CsvDialect } from '../export/dialect';
import { readerLine } from '../export/reader-csv';
import { bucketDays, bucketsOf, median, type Bucket } from './aggregate';
import { cropName, describeBucket, formatDays, NO_SCANNER, scannerLabel, type DaysDrill } from './drill';
import type { Zone } from './date-range';
import { NO_CROP, summarize, type Row, type Summary } from './rows';
import type { Speech } from './speech';
import { MISS_KINDS } from './targets/misses';
import type { ExplorerState, Grouping, GroupSortField } from './url-state';

/** One row of the Grouped summary: the batches of one crop, week, month, scanner or crop-and-week. */
export type Group = Summary & {
  /** Unique within a grouping; orders the groups when sorted by key (weeks and months in time order). */
  key: string;
  label: string;
  /** Median coefficient of variation of the batches that have one; null when none has. */
  cv: number | null;
  /** The drill-down to exactly these batches (see drill.ts). */
  drill: Partial<ExplorerState>;
};

function cvsOf(rows: readonly Row[]): number[] {
  const out: number[] = [];
  for (const r of rows) if (r.cv !== null) out.push(r.cv);
  return out;
}

type Keyed = { key: string; label: string; drill: Partial<ExplorerState>; rows: Row[] };

function describeGroup(
  grouping: Grouping,
  crop: string,
  scanner: string,
  days: DaysDrill,
  say: Speech,
): { label: string; drill: Partial<ExplorerState> } {
  const { t } = say;
  if (grouping === 'crop') return { label: cropName(crop, t), drill: { crop } };
  if (grouping === 'scanner') return { label: scannerLabel(scanner, t), drill: { scanner } };
  if (grouping === 'crop-week')
    return {
      label: t('grouped.cropAndWeek', { crop: cropName(crop, t), week: describeBucket(days, 'week', say) }),
      drill: { crop, days: formatDays(days) },
    };
  return { label: describeBucket(days, grouping, say), drill: { days: formatDays(days) } };
}

/**
 * The rows (those the table shows) in groups, each summarized exactly as the summary cards summarize rows
 * (summarize: weights, the fallback weight of an unknown tray and the below-target denominator), so a group's
 * figures are the cards' figures once someone drills down to it. Weeks start on Monday and months on the 1st,
 * in the zone. Rows are expected in creation order (a week's bounds are then worked out once, not per row).
 * Groups are named in the reader's language (`say`).
 */
export function groupRows(
  rows: readonly Row[],
  grouping: Grouping,
  zone: Zone,
  targets: Targets,
  say: Speech,
): Group[] {
  const groups = new Map<string, Keyed>();
  const bucket: Bucket | null =
    grouping === 'week' || grouping === 'crop-week' ? 'week' : grouping === 'month' ? 'month' : null;
  let bounds = { start: NaN, end: NaN };
  let days: DaysDrill = { from: '', to: '' };
  for (const r of rows) {
    if (bucket && !(r.time >= bounds.start && r.time < bounds.end)) {
      const { starts, ends } = bucketsOf(r.time, r.time + 1, bucket, zone);
      bounds = { start: starts[0]!, end: ends[0]! };
      days = bucketDays(bounds.start, bounds.end, zone);
    }
    const crop = r.crop ?? NO_CROP;
    const scanner = r.scanner ?? NO_SCANNER;
    const key =
      grouping === 'crop'
        ? crop
        : grouping === 'scanner'
          ? scanner
          : grouping === 'crop-week'
            ? `${crop}\u0000${days.from}`
            : days.from;
    let g = groups.get(key);
    // Labels and drill-downs once per group, not once per row (100,000 rows fall in a few hundred groups).
    if (!g) groups.set(key, (g = { key, ...describeGroup(grouping, crop, scanner, days, say), rows: [] }));
    g.rows.push(r);
  }
  return [...groups.values()].map(({ key, label, drill, rows }) => ({
    ...summarize(rows, targets),
    key,
    label,
    drill,
    cv: median(cvsOf(rows)),
  }));
}

/** Keys in reading order (crops as the crop list orders them, weeks and months in time), the unrecorded last. */
const unrecordedLast = (key: string) => (key === NO_CROP || key.startsWith(`${NO_CROP}\u0000`) ? `\uffff${key}` : key);
const byKey = (a: Group, b: Group) => unrecordedLast(a.key).localeCompare(unrecordedLast(b.key));

/** Sorted by a column; empty values (—) last in both directions; ties in key order. */
export function sortGroups(groups: readonly Group[], field: GroupSortField, dir: 'asc' | 'desc'): Group[] {
  const sign = dir === 'asc' ? 1 : -1;
  if (field === 'key') return groups.slice().sort((a, b) => sign * byKey(a, b));
  return groups.slice().sort((a, b) => {
    const x = a[field],
      y = b[field];
    if (x === y) return byKey(a, b);
    if (x === null) return 1;
    if (y === null) return -1;
    return (x - y) * sign;
  });
}

/** The direction after a click on a header: names A→Z (and weeks oldest first), figures the largest first. */
export function nextGroupDir(field: GroupSortField, current: GroupSortField, dir: 'asc' | 'desc'): 'asc' | 'desc' {
  if (field !== current) return field === 'key' ? 'asc' : 'desc';
  return dir === 'asc' ? 'desc' : 'asc';
}

/** The CSV's first column: named for spreadsheets, in English in every language like the other columns. */
const GROUP_HEADERS: Record<Grouping, string> = {
  crop: 'Crop',
  week: 'Week',
  month: 'Month',
  scanner: 'Scanner',
  'crop-week': 'Crop and week',
};
export const groupHeader = (grouping: Grouping) => GROUP_HEADERS[grouping];

const round = (v: number | null, digits: number) => (v === null ? null : Number(v.toFixed(digits)));

/**
 * The grouped table as shown (its order) for its reader's spreadsheet (BOM, the locale's separator and decimal
 * mark), rates in percent with two decimals, shares of batches too, then the batches below each kind of target;
 * the INCOMPLETE note first when given.
 */
export function groupsToCsv(
  groups: readonly Group[],
  grouping: Grouping,
  dialect: CsvDialect = API_DIALECT,
  note?: string | null,
): string {
  // The first field of every row is text (the note, a header, a group's label).
  const text = (v: string, i = 0) => csvCell(v, i === 0);
  const num = (v: number | null) => (v === null ? '' : csvNumber(String(v).replace('.', dialect.decimal)));
  const header = [
    groupHeader(grouping),
    'batches',
    'germination_rate_weighted_pct',
    'usable_seedling_rate_weighted_pct',
    'median_cv_pct',
    'below_target',
    'below_target_share_pct',
    'with_warnings_share_pct',
    ...MISS_KINDS.map((k) => `below_${k}_target`),
  ];
  const parts = [BOM];
  if (note) parts.push(readerLine([text(note)], dialect));
  parts.push(
    readerLine(
      header.map((h, i) => text(h, i)),
      dialect,
    ),
  );
  for (const g of groups) {
    const share = (v: number | null) => round(v === null ? null : v * 100, 2);
    // Per kind of target: empty where no batch of the group is judged by one.
    const byKind = MISS_KINDS.map((k) => (g.judgedBy[k] ? g.belowBy[k] : null));
    const figures = [
      g.count,
      round(g.germination, 2),
      round(g.usable, 2),
      round(g.cv, 2),
      g.below,
      share(g.belowShare),
      share(g.warningShare),
      ...byKind,
    ];
    parts.push(readerLine([text(g.label), ...figures.map(num)], dialect));
  }
  return parts.join('');
}
