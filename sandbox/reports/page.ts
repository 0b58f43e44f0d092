import { createHash } from 'node:crypto';
import type { Batch } from '../../lib/contract';

/*
 * The sandbox's analysis report of a batch: the page a batch's analysis_link opens, in place of the real
 * service's report (which has the images and per-tray detail the API does not carry). Its figures are the
 * batch's own; every text of the batch is escaped, and the page runs no script at all (see REPORT_CSP).
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in HTML content and in quoted attribute values. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const STYLE = `
:root { color-scheme: light dark; --bg: #fbfcfa; --fg: #1d2420; --muted: #56615a; --line: #d5dbd6; --note: #fff4d6; --note-fg: #4d3b00; }
@media (prefers-color-scheme: dark) { :root { --bg: #121513; --fg: #e6ebe7; --muted: #a9b3ac; --line: #39413b; --note: #3b3214; --note-fg: #f3e3b3; } }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
.sandbox { margin: 0 0 1.5rem; padding: 0.6rem 0.9rem; border-radius: 6px; background: var(--note); color: var(--note-fg); }
h1 { margin: 0 0 0.25rem; font-size: 1.5rem; overflow-wrap: anywhere; }
h2 { margin: 1.75rem 0 0.5rem; font-size: 1.1rem; }
.meta { margin: 0; color: var(--muted); overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: minmax(10rem, 16rem) 1fr; gap: 0.35rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; white-space: pre-line; }
meter { width: 10rem; margin-left: 0.6rem; vertical-align: middle; }
`;

/**
 * The answers' Content-Security-Policy: nothing may load or run but the page's own style (by its hash), and no
 * other site may frame it. Batch text is escaped as well; this is the second wall.
 */
export const REPORT_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
const NOT_RECORDED = 'not recorded';

/** A decimal of the service with its unit (`92.50 %`), or that it was not recorded. */
const value = (v: string | number | null, unit = '') => (v === null ? NOT_RECORDED : `${v}${unit}`);
/** A rate with a bar from 0 to 100 (a native meter: no style or script of its own). */
function rate(v: string | null, label: string): string {
  if (v === null) return NOT_RECORDED;
  const n = Math.min(100, Math.max(0, Number(v) || 0));
  return `${escapeHtml(v)} %<meter min="0" max="100" value="${n}" aria-label="${escapeHtml(label)}"></meter>`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="sandbox" role="note"><strong>Sandbox.</strong> This page is served by the bundled emulator of the Batch Data Service, made from the batch’s own figures, with made-up data. The real service’s analysis report shows the scan itself.</p>
${body}
</main>
</body>
</html>
`;
}

const rows = (pairs: [string, string][]) =>
  `<dl>\n${pairs.map(([term, html]) => `<dt>${escapeHtml(term)}</dt><dd>${html}</dd>`).join('\n')}\n</dl>`;

/** The report of `batch` of organisation `organisation` (its display name). */
export function reportPage(organisation: string, batch: Batch): string {
  const e = (v: string | number | null, unit = '') => escapeHtml(value(v, unit));
  const created = Date.parse(batch.batch_creation_date);
  const body = `<h1>${escapeHtml(batch.batch_name)}</h1>
<p class="meta">Analysis report · ${escapeHtml(organisation)} · created ${escapeHtml(Number.isNaN(created) ? batch.batch_creation_date : `${when.format(created)} UTC`)}</p>
<h2>Germination</h2>
${rows([
  ['Germination rate', rate(batch.avg_germination_rate, 'Germination rate')],
  ['Germinated seedlings per tray', e(batch.avg_germinated_seedlings)],
  ['Non-germinated seedlings per tray', e(batch.avg_non_germinated_seedlings)],
  ['Cells per tray', e(batch.total_cells_per_tray)],
])}
<h2>Usable seedlings</h2>
${rows([
  ['Usable-seedling rate', rate(batch.avg_usable_seedling_rate, 'Usable-seedling rate')],
  ['Usable seedlings per tray', e(batch.avg_usable_seedlings)],
  ['Cells without a usable seedling per tray', e(batch.avg_non_usable_cells)],
  ['Size CV (spread of seedling size)', e(batch.avg_coefficient_of_variation, ' %')],
  ['Median seedling size', e(batch.avg_median_seedling_size_mm2, ' mm²')],
])}
<h2>Scan</h2>
${rows([
  ['Crop', e(batch.crop_type)],
  ['Images', e(batch.number_of_images)],
  ['Scanned by', e(batch.scanned_by_email)],
  ['Warnings', batch.warnings ? 'Yes: this batch carries at least one warning' : 'None'],
  ['Comment', batch.comment === null ? 'None' : escapeHtml(batch.comment)],
  ['Batch ID', escapeHtml(batch.batch_id)],
])}`;
  return page(`Analysis report: ${batch.batch_name} (sandbox)`, body);
}

/** What a link to no batch of the sandbox opens. */
export function notFoundPage(): string {
  return page(
    'No such analysis report (sandbox)',
    '<h1>No such analysis report</h1>\n<p class="meta">The sandbox has no batch at this address: the link is mistyped, or the batch was removed (a reset of the sandbox brings its batches back).</p>',
  );
}
