import 'server-only';
import { drillChips } from '../../explorer/drill';
import { belowChoice } from '../../explorer/targets/misses';
import { targetLines } from '../../explorer/targets/target-lines';
import { EXPORT_COLUMNS } from '../../export/columns';
import { viewColumns, viewSheetOf } from '../../export/view-table';
import { readerLocale } from '../../i18n/languages';
import { afterBreaks } from '../../print/column-widths';
import {
  MISS_MARKS,
  PRINT_CELL_PT,
  PRINT_CELLS,
  PRINT_PAD_PX,
  PRINT_ROW_LIMIT,
  printTableLayout,
  type MissMark,
  type PrintCellContext,
} from '../../print/print-cells';
import type { PdfFooter } from './pdf-printer';
import { escapeHtml as h } from '../notify/mail-layout';
import { periodText, summaryCards } from './report-figures';
import { reportTranslator } from './report-translator';
import type { ReportWords, ViewBatches } from './view-report';

/** Whose report, of which view, made when: what the printed report says besides the view's batches. */
export type ReportDocumentInput = { organisation: string; viewName: string; made: number };

/** The table's width on paper: what landscape A4 (297 mm) holds within the PDF's 8 mm sides and a little more. */
const TABLE_MM = 277;
/**
 * A text's width in CSS px at `pt`, estimated from its characters' widths in DejaVu Sans (the server has no canvas
 * to measure with), 5 % to spare: narrow punctuation and i/l a third of an em, m/w/%/@ and dashes nearly a whole
 * one, digits 0.64, capitals 0.72, anything else 0.62. Bold text is 8 % wider.
 */
const NARROW = new Set([..." .,:;!|()[]'ijlfrtI·-"]);
const WIDE = new Set([...'mwMW@%—…↓↑▲▼']);
function estimate(pt: number, bold = false): (text: string) => number {
  const px = ((pt * 96) / 72) * (bold ? 1.08 : 1) * 1.05;
  return (text) => {
    let em = 0;
    for (const c of text)
      em += NARROW.has(c)
        ? 0.34
        : WIDE.has(c)
          ? 0.98
          : c >= '0' && c <= '9'
            ? 0.64
            : c >= 'A' && c <= 'Z'
              ? 0.72
              : 0.62;
    return em * px;
  };
}

/** Paper styles: A4 landscape, the table's header on every page, a row never cut across two pages, the marks in the danger colour. */
const STYLE = `
@page { size: A4 landscape; }
* { box-sizing: border-box; }
body { margin: 0; font: 9pt/1.35 "DejaVu Sans", "Liberation Sans", Arial, system-ui, sans-serif; color: #1a1a1a; }
h1 { font-size: 15pt; margin: 0 0 2mm; }
h1 small { display: block; font-size: 10pt; font-weight: normal; color: #444; }
h2 { font-size: 11pt; margin: 5mm 0 2mm; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 1mm 5mm; margin: 0; }
dt { color: #555; }
dd { margin: 0; }
dd ul { margin: 0; padding: 0; list-style: none; }
.cards { display: flex; gap: 4mm; }
.card { border: 0.3mm solid #bbb; border-radius: 1.5mm; padding: 2mm 4mm; min-width: 38mm; }
.card .label { color: #555; }
.card .value { font-size: 15pt; font-weight: 600; }
.card .parts { color: #555; font-size: 8pt; }
.legend, .count, .more { color: #444; margin: 1mm 0; }
table { width: ${TABLE_MM}mm; border-collapse: collapse; table-layout: fixed; font-size: ${PRINT_CELL_PT}pt; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { padding: 0.6mm ${PRINT_PAD_PX}px; text-align: left; vertical-align: top; border-bottom: 0.2mm solid #ccc; }
th { border-bottom: 0.4mm solid #555; font-weight: 600; }
th { overflow-wrap: normal; }
td { white-space: nowrap; }
td.cut { overflow: hidden; text-overflow: ellipsis; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.miss { color: #b00020; font-weight: 600; }
td.n { color: #666; }
a { color: inherit; }
`;

const NUMERIC = new Set<string>(['germination', 'target', 'usable', 'cells', 'cv', 'size', 'images', 'germinated']);

/**
 * The printed report of a view as one self-contained HTML document (no script, no request: every word and style
 * is in it): the print report's head (organisation, range, zone, filters, sort, the targets in force, when made),
 * the summary cards, and the view's table in its order and columns, the first PRINT_ROW_LIMIT rows numbered,
 * each figure that misses its crop's target marked as on the page's printed report.
 */
export function reportDocument(view: ViewBatches, w: ReportWords, input: ReportDocumentInput): string {
  const reader = readerLocale(null, w.language);
  const t = w.print;
  const te = reportTranslator(reader, 'explorer');
  const tr = reportTranslator(reader, 'reports');
  const { f } = w.say;
  const { state, rows, targets, crops } = view;
  const zone = state.tz;
  const sheet = viewSheetOf(state, input.organisation, targets, crops, w);
  const columns = viewColumns(state);
  const shown = new Set(columns.map((c) => c.id));
  const hidden = EXPORT_COLUMNS.filter((c) => !shown.has(c.id));
  const filters = [
    ...(state.q.trim() ? [t('search', { text: state.q.trim() })] : []),
    ...(state.warn ? [t('warningsOnly')] : []),
    ...(state.below ? [t('belowOnly', { kind: te(`filters.belowKinds.${belowChoice(state.below)}`) })] : []),
    ...drillChips(state, w.say).map((c) => c.label),
    ...(hidden.length ? [t('hiddenColumns', { columns: hidden.map((c) => w.words.columns[c.id]).join(', ') })] : []),
  ];
  const made =
    zone === 'UTC' ? f.dateTime(input.made, zone) : t('madeAt', { dateTime: f.dateTime(input.made, zone), zone });
  const facts: [string, string[]][] = [
    [t('organisation'), [input.organisation]],
    [t('range'), [periodText(view, w, t('allTime'))]],
    [t('zone'), [zone]],
    [
      t('filters'),
      [
        ...(filters.length ? filters : [t('noFilters')]),
        t('sortedBy', { column: sheet.sort ?? state.sort, dir: t(state.dir === 'asc' ? 'ascending' : 'descending') }),
      ],
    ],
    [t('targets'), targetLines(targets, crops, t, f)],
    [t('made'), [made]],
  ];
  const cards = summaryCards(view, w);

  const printed = rows.slice(0, PRINT_ROW_LIMIT);
  const ctx: PrintCellContext = {
    zone,
    targets,
    f,
    words: {
      warning: te('table.warning'),
      link: t('analysisLink'),
      kinds: { germination: te('targetKinds.germination'), usable: te('targetKinds.usable'), cv: te('targetKinds.cv') },
    },
  };
  const cells = columns.map((c) => printed.map((r) => PRINT_CELLS[c.id](r, ctx)));
  const numbers = printed.map((_, i) => f.count(i + 1));
  // The table's own words (no units: the page's printed report heads its columns so), the sorted one marked.
  const headers = columns.map(
    (c) => `${te(`columns.${c.id}`)}${w.words.columns[c.id] === sheet.sort ? (state.dir === 'asc' ? ' ▲' : ' ▼') : ''}`,
  );
  const measure = { header: estimate(PRINT_CELL_PT, true), cell: estimate(PRINT_CELL_PT) };
  const layout = printTableLayout(
    columns.map((c) => c.id),
    headers,
    numbers,
    cells,
    measure,
    TABLE_MM,
  );
  const numeric = ['#', ...columns.map((c) => c.id)].map((id) => id === '#' || NUMERIC.has(id));
  const th = (text: string, i: number) =>
    `<th style="width:${layout.percents[i]!.toFixed(3)}%"${numeric[i] ? ' class="num"' : ''}>${afterBreaks(text).map(h).join('<wbr>')}</th>`;
  const head = `<tr>${['#', ...headers].map(th).join('')}</tr>`;
  const body = printed
    .map((_, row) => {
      const tds = columns.map((c, k) => {
        const cell = cells[k]![row]!;
        const classes = [numeric[k + 1] ? 'num' : '', cell.miss ? 'miss' : '', layout.cut[k + 1] ? 'cut' : '']
          .filter(Boolean)
          .join(' ');
        const text = cell.href ? `<a href="${h(cell.href)}">${h(cell.text)}</a>` : h(cell.text);
        return `<td${classes ? ` class="${classes}"` : ''}>${text}</td>`;
      });
      return `<tr><td class="num n">${numbers[row]}</td>${tds.join('')}</tr>`;
    })
    .join('\n');
  // The legend names only the marks printed, and says so when texts are cut short.
  const marks = (['below', 'above'] as const).filter((m: MissMark) =>
    cells.some((col) => col.some((p) => p.miss === m)),
  );
  const legend = [
    ...marks.map((m) => t(m === 'below' ? 'belowMark' : 'aboveMark', { mark: MISS_MARKS[m] })),
    ...(layout.cut.some(Boolean) ? [t('cutShort')] : []),
  ].join(' · ');
  return `<!doctype html>
<html lang="${w.language}"><head><meta charset="utf-8"><title>${h(`${t('title')}: ${input.viewName}`)}</title><style>${STYLE}</style></head>
<body>
<h1>${h(t('title'))}<small>${h(input.viewName)}</small></h1>
<dl>
${facts.map(([term, lines]) => `<dt>${h(term)}</dt><dd>${lines.length === 1 ? h(lines[0]!) : `<ul>${lines.map((l) => `<li>${h(l)}</li>`).join('')}</ul>`}</dd>`).join('\n')}
</dl>
<h2>${h(tr('mail.summary'))}</h2>
<div class="cards">
${cards.map((c) => `<div class="card"><div class="label">${h(c.label)}</div><div class="value">${h(c.value)}</div>${c.parts ? `<div class="parts">${h(c.parts)}</div>` : ''}</div>`).join('\n')}
</div>
<h2>${h(t('batches'))}</h2>
<p class="count">${h(t('batchesCount', { shown: f.count(rows.length), printed: f.count(printed.length) }))}</p>
${legend ? `<p class="legend">${h(legend)}</p>` : ''}
<table><thead>${head}</thead><tbody>
${body}
</tbody></table>
${rows.length > printed.length ? `<p class="more">${h(t('more', { count: f.count(rows.length - printed.length) }))}</p>` : ''}
</body></html>
`;
}

/** The report's footer line on every page of its PDF, and its page of pages (`2 / 5`, as the page's printed report numbers them). */
export function reportFooter(w: ReportWords, input: ReportDocumentInput, zone: string): PdfFooter {
  return {
    text: w.print('footer', { organisation: input.organisation, made: w.say.f.dateTime(input.made, zone) }),
    page: (page, pages) => `${page} / ${pages}`,
  };
}
