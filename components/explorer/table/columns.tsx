import { Fragment, type ReactNode } from 'react';
import { targetFor, type TargetMetric, type Targets } from '@/lib/contract/targets';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import { missedKinds, missesOfRow } from '@/lib/explorer/targets/misses';
import type { SortField } from '@/lib/explorer/url-state';
import { sayVerdict, verdict, verdictFigure } from '@/lib/explorer/verdict';
import { AnalysisLink } from '../analysis/analysis-link';
import { DASH, type Formats } from '@/lib/i18n/formats';
import type { Messages } from '@/lib/i18n/messages';
import type { ExplorerT } from '../shared/use-explorer-words';
import styles from '../view/explorer.module.css';

/**
 * What a cell needs besides its row: the zone dates are shown in, the targets each row is judged against,
 * how to open a batch, whether the row holds the table's one Tab stop (its links are reachable by Tab
 * only then, so Tab leaves the table instead of walking every link of every row), and the reader's
 * formatters and the explorer's messages.
 */
export type CellContext = {
  zone: Zone;
  targets: Targets;
  onOpen: (row: Row) => void;
  tabbable: boolean;
  f: Formats;
  t: ExplorerT;
};

/** A column's id, which also names its header in the messages (`explorer.columns.<id>`). */
export type ColumnId = keyof Messages['explorer']['columns'];

export type Column = {
  id: ColumnId;
  sort?: SortField;
  numeric?: boolean;
  width: number;
  render: (row: Row, ctx: CellContext) => ReactNode;
  /** The cell's whole text when it may be cut (shown on hover; the focused row unfolds to show it). */
  full?: (row: Row) => string | null;
  /** Stays at the table's left edge while it scrolls sideways: the column that says which batch a row is. */
  sticky?: true;
};

const germinationTarget = (r: Row, targets: Targets) => targetFor(targets, r.crop, 'germination');

/**
 * A figure judged against its crop's target (the CV against its threshold): when it misses, in red with a mark
 * whose words are the detail's verdict; written with as many decimals as it takes not to contradict it.
 */
function judged(row: Row, metric: TargetMetric, { targets, f, t }: CellContext): ReactNode {
  const v = verdict(row, targets, metric);
  const text = verdictFigure(v, f.percent);
  if (!v.misses) return text;
  const words = sayVerdict(v, (key, values) => t(`verdict.${key}`, values), f.percentUpTo);
  // One unbreakable piece: a narrow column must not part the mark, the figure and its unit.
  return (
    <span className={styles.judged}>
      <span className={styles.belowMark} title={words}>
        <span aria-hidden="true">{metric === 'cv' ? '▴' : '▾'}</span>
        <span className="visually-hidden">{words}: </span>
      </span>
      <span className={styles.below}>{text}</span>
    </span>
  );
}

/** The targets a row misses, a badge each in the summary card's words (`germination`, `usable`, `CV`), the detail's verdict on hover. */
function misses(row: Row, { targets, f, t }: CellContext): ReactNode {
  const kinds = missedKinds(missesOfRow(row, targets));
  if (!kinds.length) return DASH;
  // Spaces between the badges: their words stay apart in copied text.
  return kinds.map((k, i) => (
    <Fragment key={k}>
      {i > 0 && ' '}
      <span
        className={styles.missBadge}
        title={sayVerdict(verdict(row, targets, k), (key, values) => t(`verdict.${key}`, values), f.percentUpTo)}
      >
        {t(`targetKinds.${k}`)}
      </span>
    </Fragment>
  ));
}

function Warning({ comment, word }: { comment: string | null; word: string }) {
  return (
    <>
      <span className={styles.badge}>{word}</span>
      {comment && <> {comment}</>}
    </>
  );
}

const text = (v: string | null) => (v === null || v === '' ? DASH : v);

export const COLUMNS: Column[] = [
  { id: 'date', sort: 'batch_creation_date', width: 170, render: (r, { zone, f }) => f.dateTime(r.time, zone) },
  {
    id: 'name',
    sort: 'batch_name',
    width: 260,
    sticky: true,
    full: (r) => r.name,
    render: (r, { onOpen }) => (
      // Not a Tab stop of its own: the row is (Enter opens it), so Tab does not stop twice on each batch.
      <button type="button" tabIndex={-1} className={styles.linkButton} onClick={() => onOpen(r)}>
        {r.name}
      </button>
    ),
  },
  { id: 'crop', sort: 'crop_type', width: 120, full: (r) => r.crop, render: (r) => text(r.crop) },
  {
    id: 'germination',
    sort: 'avg_germination_rate',
    numeric: true,
    width: 120,
    render: (r, ctx) => judged(r, 'germination', ctx),
  },
  {
    id: 'target',
    sort: 'target',
    numeric: true,
    width: 80,
    render: (r, { targets, f }) => f.percent(germinationTarget(r, targets)),
  },
  // On paper the same words as a comma list (lib/print/print-cells.ts).
  { id: 'below', sort: 'below', width: 240, render: misses },
  {
    id: 'usable',
    sort: 'avg_usable_seedling_rate',
    numeric: true,
    width: 110,
    render: (r, ctx) => judged(r, 'usable', ctx),
  },
  { id: 'cells', sort: 'total_cells_per_tray', numeric: true, width: 105, render: (r, { f }) => f.int(r.cells) },
  {
    id: 'cv',
    sort: 'avg_coefficient_of_variation',
    numeric: true,
    width: 110,
    render: (r, ctx) => judged(r, 'cv', ctx),
  },
  {
    id: 'size',
    sort: 'avg_median_seedling_size_mm2',
    numeric: true,
    width: 140,
    render: (r, { f }) => f.area(r.field('avg_median_seedling_size_mm2')),
  },
  {
    id: 'images',
    sort: 'number_of_images',
    numeric: true,
    width: 80,
    render: (r, { f }) => f.int(r.field('number_of_images')),
  },
  {
    // What the warning is, where the scan's comment says (cut to the column; whole on hover, in the focused row
    // and in the detail). On paper the comment has its own column: the word alone (lib/print/print-cells.ts).
    id: 'warnings',
    sort: 'warnings',
    width: 260,
    full: (r) => (r.warnings ? r.field('comment') : null),
    render: (r, { t }) => (r.warnings ? <Warning comment={r.field('comment')} word={t('table.warning')} /> : DASH),
  },
  { id: 'germinated', numeric: true, width: 150, render: (r, { f }) => f.decimal(r.field('avg_germinated_seedlings')) },
  { id: 'scanner', width: 200, full: (r) => r.scanner, render: (r) => text(r.scanner) },
  {
    id: 'analysis',
    width: 130,
    render: (r, { tabbable }) => <AnalysisLink link={r.field('analysis_link')} tabbable={tabbable} />,
  },
  { id: 'comment', width: 240, full: (r) => r.field('comment'), render: (r) => text(r.field('comment')) },
];
