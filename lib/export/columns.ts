import type { Batch } from '../contract';
import { targetFor, type Targets } from '../contract/targets';
import type { Row } from '../explorer/rows';
import { cropTargets, missedKinds, missesOf } from '../explorer/targets/misses';
import { offsetAt, type Zone } from '../explorer/zones';
import type { ColumnId, ExportWords } from './strings';

/**
 * What a cell is in a spreadsheet. `number` comes from the service's two-decimal strings (kept as text until
 * the writer: exact in CSV, a numeric cell with two decimals in xlsx); `date` is an instant (ms).
 */
export type CellType = 'date' | 'number' | 'int' | 'text' | 'yes-no' | 'link';

export type CellValue = number | string | boolean | null;
/** The zone dates are written in, the targets rows are judged against, the words of the reader's language. */
export type ExportContext = { zone: Zone; targets: Targets; words: ExportWords };

/**
 * What a cell is computed from: a batch's fields and its instant. A table Row is one (read from its store, with no
 * Batch object per row); the server wraps each batch of a page with exportRow.
 */
export type ExportRow = Pick<Row, 'time' | 'field'>;

const figure = (v: string | null) => (v === null ? null : Number(v));
/** The targets a batch misses (targets/misses.ts), from its fields as the service wrote them. */
function exportMisses(r: ExportRow, targets: Targets): number {
  const g = figure(r.field('avg_germination_rate')),
    u = figure(r.field('avg_usable_seedling_rate')),
    cv = figure(r.field('avg_coefficient_of_variation'));
  return missesOf(g, u, cv, cropTargets(targets, r.field('crop_type')));
}

/** A batch as an ExportRow. */
export function exportRow(batch: Batch): ExportRow {
  return { time: Date.parse(batch.batch_creation_date), field: (k) => batch[k] };
}

export type ExportColumn = {
  id: ColumnId;
  type: CellType;
  /** The header: the table's name, with the unit or the zone. */
  header: (ctx: { zone: Zone; words: ExportWords }) => string;
  /** Width in characters in the xlsx. */
  width: number;
  value: (row: ExportRow, ctx: ExportContext) => CellValue;
};

const withUnit =
  (id: ColumnId, unit?: string) =>
  ({ words }: { words: ExportWords }) =>
    unit ? `${words.columns[id]} (${unit})` : words.columns[id];
const decimal = (n: number | null) => (n === null ? null : String(n));

/** Every column of the table, in its order, as the exports write them. */
export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  {
    id: 'date',
    type: 'date',
    header: ({ zone, words }) => `${words.columns.date} (${zone})`,
    width: 20,
    value: (r) => r.time,
  },
  { id: 'name', type: 'text', header: withUnit('name'), width: 36, value: (r) => r.field('batch_name') },
  { id: 'crop', type: 'text', header: withUnit('crop'), width: 20, value: (r) => r.field('crop_type') },
  {
    id: 'germination',
    type: 'number',
    header: withUnit('germination', '%'),
    width: 15,
    value: (r) => r.field('avg_germination_rate'),
  },
  {
    id: 'target',
    type: 'number',
    header: withUnit('target', '%'),
    width: 11,
    value: (r, { targets }) => decimal(targetFor(targets, r.field('crop_type'), 'germination')),
  },
  {
    id: 'below',
    type: 'text',
    header: withUnit('below'),
    width: 24,
    value: (r, { targets, words }) =>
      missedKinds(exportMisses(r, targets))
        .map((k) => words.targetKinds[k])
        .join(', ') || null,
  },
  {
    id: 'usable',
    type: 'number',
    header: withUnit('usable', '%'),
    width: 12,
    value: (r) => r.field('avg_usable_seedling_rate'),
  },
  { id: 'cells', type: 'int', header: withUnit('cells'), width: 11, value: (r) => r.field('total_cells_per_tray') },
  {
    id: 'cv',
    type: 'number',
    header: withUnit('cv', '%'),
    width: 12,
    value: (r) => r.field('avg_coefficient_of_variation'),
  },
  {
    id: 'size',
    type: 'number',
    header: withUnit('size', 'mm²'),
    width: 17,
    value: (r) => r.field('avg_median_seedling_size_mm2'),
  },
  { id: 'images', type: 'int', header: withUnit('images'), width: 9, value: (r) => r.field('number_of_images') },
  { id: 'warnings', type: 'yes-no', header: withUnit('warnings'), width: 10, value: (r) => r.field('warnings') },
  {
    id: 'germinated',
    type: 'number',
    header: withUnit('germinated'),
    width: 16,
    value: (r) => r.field('avg_germinated_seedlings'),
  },
  { id: 'scanner', type: 'text', header: withUnit('scanner'), width: 28, value: (r) => r.field('scanned_by_email') },
  { id: 'analysis', type: 'link', header: withUnit('analysis'), width: 40, value: (r) => r.field('analysis_link') },
  { id: 'comment', type: 'text', header: withUnit('comment'), width: 40, value: (r) => r.field('comment') },
];

export const COLUMN_IDS: readonly ColumnId[] = EXPORT_COLUMNS.map((c) => c.id);
export const isColumnId = (id: string): id is ColumnId => (COLUMN_IDS as readonly string[]).includes(id);

/** The columns the table shows: every column but the hidden ones, in the table's order. */
export function shownColumns(hidden: ReadonlySet<string>): ExportColumn[] {
  return EXPORT_COLUMNS.filter((c) => !hidden.has(c.id));
}

const DAY_MS = 86_400_000;

/**
 * The zone's wall clock at an instant (ms of the same fields read as UTC), with the offset looked up once per
 * UTC day rather than per row: a day whose start and end share an offset (every day but the two of a DST
 * change) uses it throughout. 100,000 rows then cost a few hundred Intl calls, not 100,000.
 */
const clocks = new Map<Zone, (ms: number) => number>();
export function wallClockIn(zone: Zone): (ms: number) => number {
  const made = clocks.get(zone);
  if (made) return made;
  const byDay = new Map<number, number | null>();
  const clock = (ms: number) => {
    const day = Math.floor(ms / DAY_MS);
    let offset = byDay.get(day);
    if (offset === undefined) {
      const start = offsetAt(day * DAY_MS, zone);
      offset = start === offsetAt((day + 1) * DAY_MS - 1000, zone) ? start : null;
      byDay.set(day, offset);
    }
    return ms + (offset ?? offsetAt(ms, zone));
  };
  clocks.set(zone, clock);
  return clock;
}

/** The wall clock of the zone at an instant as `YYYY-MM-DD HH:MM:SS`, which spreadsheets read as a date in any locale. */
export function wallClockText(wallMs: number): string {
  return new Date(wallMs).toISOString().slice(0, 19).replace('T', ' ');
}
