import { BATCH_FIELDS, type Batch } from '../contract';
import { formatUtcDate } from '../utc-date';

/**
 * The loaded batches of a range, column by column, so that a million fit in the browser (measured against one
 * object per batch, and Arrow and DuckDB weighed: docs/decisions/row-store.md).
 *
 * - Numbers live in typed arrays: decimals as integer hundredths (the service writes exactly two digits), integers
 *   as Int32, the creation time as ms. Crops, scanners, comments and the analysis link's folder are interned.
 * - Anything that would not read back exactly (an odd decimal such as "007.10" or "-0.00", a huge integer, a date
 *   written another way, a link that is not folder/batch_id) is kept as it came in a side map: what goes in comes
 *   out, field for field.
 * - A row is a tiny handle (store, index) whose getters read the columns; `row.batch` makes a plain Batch.
 * - Search needs no haystack per row: lower-cased names are joined into one text per chunk of rows and searched with
 *   indexOf; crops, scanners and comments are matched once per distinct value.
 */

export const NULL = -2147483648;
/** The value is in `odd` (it would not read back exactly from the column). */
export const ODD = -2147483647;
const CHUNK = 4096;

const DECIMALS = [
  'avg_germinated_seedlings',
  'avg_non_germinated_seedlings',
  'avg_germination_rate',
  'avg_usable_seedlings',
  'avg_non_usable_cells',
  'avg_usable_seedling_rate',
  'avg_coefficient_of_variation',
  'avg_median_seedling_size_mm2',
] as const;
export type DecimalField = (typeof DECIMALS)[number];
const DECIMAL_INDEX = Object.fromEntries(DECIMALS.map((f, k) => [f, k])) as Record<DecimalField, number>;
const FIELD_INDEX = Object.fromEntries(BATCH_FIELDS.map((f, k) => [f, k])) as Record<keyof Batch, number>;

/** Hundredths of a decimal written as the service writes them (`-12.30`, at most 7 integer digits), else ODD. */
function centsOf(s: string): number {
  const n = s.length;
  let k = 0;
  const negative = s.charCodeAt(0) === 45;
  if (negative) k = 1;
  const dot = n - 3;
  if (dot <= k || dot - k > 7 || s.charCodeAt(dot) !== 46) return ODD;
  if (s.charCodeAt(k) === 48 && dot - k > 1) return ODD; // a leading zero would not read back
  let v = 0;
  for (let j = k; j < n; j++) {
    if (j === dot) continue;
    const c = s.charCodeAt(j) - 48;
    if (c < 0 || c > 9) return ODD;
    v = v * 10 + c;
  }
  if (negative && v === 0) return ODD; // "-0.00"
  return negative ? -v : v;
}

function decimalText(c: number): string {
  const a = c < 0 ? -c : c;
  const cents = a % 100;
  return `${c < 0 ? '-' : ''}${(a - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`;
}

const isInt32 = (v: unknown): v is number => typeof v === 'number' && (v | 0) === v && !Object.is(v, -0) && v > ODD;

/** Distinct strings by number; their lower-case forms and Search matches worked out once per value. */
class Interner {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  private lower: string[] = [];
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(s);
      this.ids.set(s, id);
    }
    return id;
  }
  lowerValues(): string[] {
    for (let k = this.lower.length; k < this.values.length; k++) this.lower.push(this.values[k]!.toLowerCase());
    return this.lower;
  }
  /** Which values hold `word` (lower-cased), or null when none does. */
  matching(word: string): Uint8Array | null {
    const lower = this.lowerValues();
    let out: Uint8Array | null = null;
    for (let k = 0; k < lower.length; k++) if (lower[k]!.includes(word)) (out ??= new Uint8Array(lower.length))[k] = 1;
    return out;
  }
}

export class RowStore {
  length = 0;
  private capacity = 0;
  private readonly ids: string[] = [];
  private readonly names: string[] = [];
  private time = new Float64Array(0);
  private decimals: Int32Array[] = DECIMALS.map(() => new Int32Array(0));
  private cells = new Int32Array(0);
  private images = new Int32Array(0);
  private warned = new Uint8Array(0);
  private crop = new Int32Array(0);
  private scanner = new Int32Array(0);
  private comment = new Int32Array(0);
  private linkFolder = new Int32Array(0);
  private readonly crops = new Interner();
  private readonly scanners = new Interner();
  private readonly comments = new Interner();
  private readonly folders = new Interner();
  /** Values the columns cannot give back exactly, by `index * 18 + field`. */
  private readonly odd = new Map<number, unknown>();
  /** Lower-cased names joined by newlines, one text per CHUNK rows, and where each row starts in it. */
  private readonly nameTexts: { text: string; starts: Uint32Array }[] = [];
  private searched: { key: string; length: number; hits: Uint8Array } | null = null;
  private nameOrder: { length: number; ranks: Uint32Array } | null = null;

  private grow(min: number) {
    const cap = Math.max(min, this.capacity * 2, 1024);
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.time = f64(this.time);
    this.decimals = this.decimals.map(i32);
    this.cells = i32(this.cells);
    this.images = i32(this.images);
    const w = new Uint8Array(cap);
    w.set(this.warned);
    this.warned = w;
    this.crop = i32(this.crop);
    this.scanner = i32(this.scanner);
    this.comment = i32(this.comment);
    this.linkFolder = i32(this.linkFolder);
    this.capacity = cap;
  }

  private keepOdd(i: number, field: keyof Batch, value: unknown): number {
    this.odd.set(i * 18 + FIELD_INDEX[field], value);
    return ODD;
  }

  private int(i: number, field: keyof Batch, v: number | null): number {
    return v === null ? NULL : isInt32(v) ? v : this.keepOdd(i, field, v);
  }

  private interned(i: number, field: keyof Batch, table: Interner, v: string | null): number {
    return v === null ? -1 : typeof v === 'string' ? table.id(v) : this.keepOdd(i, field, v);
  }

  /** Appends one batch; its row. */
  add(b: Batch): StoredRow {
    const i = this.length;
    if (i === this.capacity) this.grow(i + 1);
    this.ids.push(b.batch_id);
    this.names.push(b.batch_name);
    const ms = Date.parse(b.batch_creation_date);
    this.time[i] = ms;
    if (!Number.isFinite(ms) || formatUtcDate(ms) !== b.batch_creation_date)
      this.keepOdd(i, 'batch_creation_date', b.batch_creation_date);
    for (let k = 0; k < DECIMALS.length; k++) {
      const field = DECIMALS[k]!;
      const v = b[field];
      let c = v === null ? NULL : typeof v === 'string' ? centsOf(v) : ODD;
      if (c === ODD) c = this.keepOdd(i, field, v);
      this.decimals[k]![i] = c;
    }
    this.cells[i] = this.int(i, 'total_cells_per_tray', b.total_cells_per_tray);
    this.images[i] = this.int(i, 'number_of_images', b.number_of_images);
    this.warned[i] = b.warnings === true ? 1 : b.warnings === false ? 0 : (this.keepOdd(i, 'warnings', b.warnings), 2);
    this.crop[i] = this.interned(i, 'crop_type', this.crops, b.crop_type);
    this.scanner[i] = this.interned(i, 'scanned_by_email', this.scanners, b.scanned_by_email);
    this.comment[i] = this.interned(i, 'comment', this.comments, b.comment);
    const link = b.analysis_link;
    const folder =
      typeof link === 'string' && link.endsWith(b.batch_id) ? link.slice(0, link.length - b.batch_id.length) : null;
    this.linkFolder[i] =
      link === null ? -1 : folder !== null ? this.folders.id(folder) : this.keepOdd(i, 'analysis_link', link);
    this.length = i + 1;
    if (this.length % CHUNK === 0) this.nameTexts.push(this.nameText(i + 1 - CHUNK, i + 1));
    return new StoredRow(this, i);
  }

  id(i: number): string {
    return this.ids[i]!;
  }
  name(i: number): string {
    return this.names[i]!;
  }
  time_(i: number): number {
    return this.time[i]!;
  }
  private oddOf(i: number, field: keyof Batch): unknown {
    return this.odd.get(i * 18 + FIELD_INDEX[field]);
  }
  /** A decimal field as a number (as `Number(text)`), null when absent. */
  number(i: number, field: DecimalField): number | null {
    return this.numberAt(i, DECIMAL_INDEX[field]);
  }
  /** `number` by the decimal's position in DECIMALS (the row getters: no look-up by name in loops over every row). */
  numberAt(i: number, k: number): number | null {
    const c = this.decimals[k]![i]!;
    if (c === NULL) return null;
    if (c === ODD) return Number(this.oddOf(i, DECIMALS[k]!));
    return c / 100;
  }
  decimal(i: number, field: DecimalField): string | null {
    const c = this.decimals[DECIMAL_INDEX[field]]![i]!;
    return c === NULL ? null : c === ODD ? (this.oddOf(i, field) as string) : decimalText(c);
  }
  private intOf(column: Int32Array, i: number, field: keyof Batch): number | null {
    const v = column[i]!;
    return v === NULL ? null : v === ODD ? (this.oddOf(i, field) as number) : v;
  }
  cellsOf(i: number): number | null {
    return this.intOf(this.cells, i, 'total_cells_per_tray');
  }
  imagesOf(i: number): number {
    return this.intOf(this.images, i, 'number_of_images')!;
  }
  warnings(i: number): boolean {
    const w = this.warned[i]!;
    return w === 2 ? (this.oddOf(i, 'warnings') as boolean) : w === 1;
  }
  private internedOf(column: Int32Array, table: Interner, i: number, field: keyof Batch): string | null {
    const id = column[i]!;
    return id === -1 ? null : id === ODD ? (this.oddOf(i, field) as string) : table.values[id]!;
  }
  cropOf(i: number): string | null {
    return this.internedOf(this.crop, this.crops, i, 'crop_type');
  }
  scannerOf(i: number): string | null {
    return this.internedOf(this.scanner, this.scanners, i, 'scanned_by_email');
  }
  commentOf(i: number): string | null {
    return this.internedOf(this.comment, this.comments, i, 'comment');
  }
  linkOf(i: number): string | null {
    const id = this.linkFolder[i]!;
    return id === -1
      ? null
      : id === ODD
        ? (this.oddOf(i, 'analysis_link') as string)
        : this.folders.values[id]! + this.ids[i]!;
  }
  createdOf(i: number): string {
    const odd = this.oddOf(i, 'batch_creation_date');
    return odd !== undefined ? (odd as string) : formatUtcDate(this.time[i]!);
  }

  /** One field of batch `i`, exactly as it was put in. */
  field<K extends keyof Batch>(i: number, field: K): Batch[K] {
    return this.read(i, field) as Batch[K];
  }
  private read(i: number, field: keyof Batch): unknown {
    switch (field) {
      case 'batch_id':
        return this.ids[i];
      case 'batch_name':
        return this.names[i];
      case 'batch_creation_date':
        return this.createdOf(i);
      case 'crop_type':
        return this.cropOf(i);
      case 'number_of_images':
        return this.imagesOf(i);
      case 'total_cells_per_tray':
        return this.cellsOf(i);
      case 'scanned_by_email':
        return this.scannerOf(i);
      case 'analysis_link':
        return this.linkOf(i);
      case 'comment':
        return this.commentOf(i);
      case 'warnings':
        return this.warnings(i);
      default:
        return this.decimal(i, field);
    }
  }

  /** Batch `i` as a plain object of the service's 18 fields in their order (a new object each time). */
  batch(i: number): Batch {
    const b = {} as Record<string, unknown>;
    for (const f of BATCH_FIELDS) b[f] = this.read(i, f);
    return b as Batch;
  }

  private nameText(from: number, to: number): { text: string; starts: Uint32Array } {
    const starts = new Uint32Array(to - from + 1);
    const parts = new Array<string>(to - from);
    let at = 0;
    for (let k = from; k < to; k++) {
      const lower = this.names[k]!.toLowerCase();
      parts[k - from] = lower;
      starts[k - from] = at;
      at += lower.length + 1;
    }
    starts[to - from] = at;
    return { text: parts.join('\n'), starts };
  }

  /** Marks every row whose lower-cased name holds `word`. */
  private markNames(word: string, hit: Uint8Array) {
    const full = this.nameTexts.length * CHUNK;
    const texts = full < this.length ? [...this.nameTexts, this.nameText(full, this.length)] : this.nameTexts;
    for (let c = 0; c < texts.length; c++) {
      const { text, starts } = texts[c]!;
      const base = c * CHUNK;
      let k = 0;
      for (let pos = text.indexOf(word); pos !== -1; pos = text.indexOf(word, starts[k + 1])) {
        while (starts[k + 1]! <= pos) k++;
        hit[base + k] = 1;
      }
    }
  }

  /**
   * 1 for every row holding each word (lower-cased, no whitespace) somewhere in its name, crop, comment or scanner
   * e-mail, case-insensitively: what a lower-cased haystack of those four would give. The last answer is kept.
   */
  searchHits(words: readonly string[]): Uint8Array {
    const key = words.join(' ');
    if (this.searched?.key === key && this.searched.length === this.length) return this.searched.hits;
    const n = this.length;
    let all: Uint8Array | null = null;
    for (const word of words) {
      const hit = new Uint8Array(n);
      this.markNames(word, hit);
      for (const [table, column] of [
        [this.crops, this.crop],
        [this.scanners, this.scanner],
        [this.comments, this.comment],
      ] as const) {
        const values = table.matching(word);
        if (values)
          for (let i = 0; i < n; i++) {
            const id = column[i]!;
            if (id >= 0 && values[id]) hit[i] = 1;
          }
      }
      const odd = [...this.odd].filter(([k]) =>
        [FIELD_INDEX.crop_type, FIELD_INDEX.scanned_by_email, FIELD_INDEX.comment].includes(k % 18),
      );
      for (const [k, v] of odd)
        if (typeof v === 'string' && v.toLowerCase().includes(word)) hit[Math.floor(k / 18)] = 1;
      if (all) for (let i = 0; i < n; i++) all[i]! &= hit[i]!;
      else all = hit;
    }
    const hits = all ?? new Uint8Array(n).fill(1);
    this.searched = { key, length: n, hits };
    return hits;
  }

  /** Crop ids ranked by their lower-cased text (code-unit order, as `<`), equal texts sharing a rank; nulls -1. */
  cropRanks(): Int32Array {
    const lower = this.crops.lowerValues();
    const distinct = [...new Set(lower)].sort();
    const rankOf = new Map(distinct.map((v, k) => [v, k]));
    const ranks = new Int32Array(lower.length);
    for (let k = 0; k < lower.length; k++) ranks[k] = rankOf.get(lower[k]!)!;
    return ranks;
  }
  /** Whether some crop was not a string (kept in the side map: cropId gives ODD). */
  hasOddCrops(): boolean {
    for (const k of this.odd.keys()) if (k % 18 === FIELD_INDEX.crop_type) return true;
    return false;
  }
  /**
   * The columns loops over every row read directly (no getter, no number boxed per row): figures as hundredths or
   * whole numbers, NULL for none; ODD marks a value kept aside, to be read through the row's getters.
   */
  columns() {
    return {
      germination: this.decimals[2]!,
      usable: this.decimals[5]!,
      cv: this.decimals[6]!,
      cells: this.cells,
      warned: this.warned,
      crop: this.crop,
      crops: this.crops.values,
    };
  }
  /** The crop id of row `i` (-1: none, ODD: see cropOf). */
  cropId(i: number): number {
    return this.crop[i]!;
  }

  /** Every row's rank among the lower-cased names (code-unit order, as `<`), equal names sharing a rank; kept until rows are added. */
  nameRanks(): Uint32Array {
    if (this.nameOrder?.length === this.length) return this.nameOrder.ranks;
    const lower = this.names.map((s) => s.toLowerCase());
    const sorted = lower.slice().sort();
    const rankOf = new Map<string, number>();
    for (let k = 0, rank = 0; k < sorted.length; k++)
      if (k === 0 || sorted[k] !== sorted[k - 1]) rankOf.set(sorted[k]!, rank++);
    const ranks = new Uint32Array(lower.length);
    for (let k = 0; k < lower.length; k++) ranks[k] = rankOf.get(lower[k]!)!;
    this.nameOrder = { length: this.length, ranks };
    return ranks;
  }
}

/** A loaded batch: an index into its store, read through getters (see Row in rows.ts). */
export class StoredRow {
  constructor(
    readonly store: RowStore,
    readonly index: number,
  ) {}
  /** The batch as a new plain object: for whole-batch uses (the detail dialog, files); loops read the getters. */
  get batch(): Batch {
    return this.store.batch(this.index);
  }
  get id(): string {
    return this.store.id(this.index);
  }
  get name(): string {
    return this.store.name(this.index);
  }
  get crop(): string | null {
    return this.store.cropOf(this.index);
  }
  get scanner(): string | null {
    return this.store.scannerOf(this.index);
  }
  get warnings(): boolean {
    return this.store.warnings(this.index);
  }
  get time(): number {
    return this.store.time_(this.index);
  }
  get germination(): number | null {
    return this.store.numberAt(this.index, 2);
  }
  get usable(): number | null {
    return this.store.numberAt(this.index, 5);
  }
  get cells(): number | null {
    return this.store.cellsOf(this.index);
  }
  /** Coefficient of variation of seedling size, %. */
  get cv(): number | null {
    return this.store.numberAt(this.index, 6);
  }
  /** Median seedling size, mm². */
  get size(): number | null {
    return this.store.numberAt(this.index, 7);
  }
  /** One field exactly as the service wrote it. */
  field<K extends keyof Batch>(field: K): Batch[K] {
    return this.store.field(this.index, field);
  }
}
