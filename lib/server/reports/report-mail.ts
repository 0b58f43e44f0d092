import 'server-only';
import { MAX_LISTED_BATCHES } from '../../contract/alerts';
import { missedKinds, missLookup } from '../../explorer/targets/misses';
import type { Row } from '../../explorer/rows';
import { DASH } from '../../i18n/formats';
import { readerLocale } from '../../i18n/languages';
import type { MailMessage } from '../notify/mail-message';
import { escapeHtml } from '../notify/mail-layout';
import { periodText, rowsBelowTarget, summaryCards } from './report-figures';
import { reportTranslator } from './report-translator';
import type { ReportWords, ViewBatches } from './view-report';

/** What one report e-mail says besides the view's batches: to whom, of which view, where it opens, what is attached. */
export type ReportMailInput = {
  to: string;
  viewName: string;
  organisation: string;
  /** The view's address on APP_ORIGIN (its query and the organisation's `org=`). */
  viewUrl: string;
  workbook: { filename: string; content: Buffer };
  /** The printed report, when the server could print it. */
  pdf?: { filename: string; content: Buffer };
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The batch's own link: the view with its detail dialog open (`batch=`). */
const batchUrl = (viewUrl: string, id: string) =>
  `${viewUrl}${viewUrl.includes('?') ? '&' : '?'}batch=${encodeURIComponent(id)}`;

/**
 * The report e-mail in the words of `w`: the subject with the view's name and period, the summary cards
 * (batches, weighted germination and usable seedlings, below target with the count per kind), the batches below
 * target in the view's order (the first MAX_LISTED_BATCHES, each linked), the view's link and the workbook
 * attached; HTML and plain text alike.
 */
export function reportMail(view: ViewBatches, w: ReportWords, input: ReportMailInput): MailMessage {
  const reader = readerLocale(null, w.language);
  const t = reportTranslator(reader, 'reports');
  const te = reportTranslator(reader, 'explorer');
  const { f } = w.say;
  const { state, targets } = view;
  const period = periodText(view, w, t('mail.allTime'));
  const cards = summaryCards(view, w);
  const misses = missLookup(targets);
  const below = rowsBelowTarget(view);
  const listed = below.slice(0, MAX_LISTED_BATCHES);
  const pct = (v: number | null) => (v === null ? DASH : f.percent(v));
  const headers = [
    `${te('columns.date')} (${state.tz})`,
    te('columns.name'),
    te('columns.crop'),
    te('columns.below'),
    te('columns.germination'),
    te('columns.usable'),
    te('columns.cv'),
  ];
  const cells = (r: Row) => [
    f.dateTime(r.time, state.tz),
    r.name,
    r.crop ?? DASH,
    missedKinds(misses(r))
      .map((k) => te(`targetKinds.${k}`))
      .join(', '),
    pct(r.germination),
    pct(r.usable),
    pct(r.cv),
  ];
  const more = below.length - listed.length;
  const intro = t('mail.intro', { view: input.viewName, organisation: input.organisation, period, zone: state.tz });
  const attached = t('mail.attached', { file: input.workbook.filename });
  // Without a PDF (no Chromium on the server, or it failed) the e-mail says where the printed report is made.
  const pdfLine = input.pdf ? t('mail.pdfAttached', { file: input.pdf.filename }) : t('mail.pdfLink');
  const why = t('mail.why', { view: input.viewName });

  const text = [
    intro,
    '',
    `${t('mail.summary')}:`,
    ...cards.map(({ label, value, parts }) => `  ${label}: ${value}${parts ? ` (${parts})` : ''}`),
    '',
    `${t('mail.belowHeading')} (${f.count(below.length)}):`,
    ...(listed.length === 0
      ? [`  ${t('mail.noneBelow')}`]
      : listed.map((r) => `  - ${cells(r).join(' | ')}\n    ${batchUrl(input.viewUrl, r.id)}`)),
    ...(more > 0 ? [`  ${t('mail.more', { count: more })}`] : []),
    '',
    `${t('mail.openView')}: ${input.viewUrl}`,
    '',
    attached,
    pdfLine,
    '',
    '-- ',
    why,
    '',
  ].join('\n');

  const cell = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:left"';
  const html = `<!doctype html>
<html lang="${w.language}"><head><meta charset="utf-8"><title>${escapeHtml(input.viewName)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1a1a1a;max-width:960px">
<p>${escapeHtml(intro)}</p>
<h2 style="font-size:1.1em">${escapeHtml(t('mail.summary'))}</h2>
<table role="presentation" style="border-collapse:collapse"><tr>
${cards.map(({ label, value, parts }) => `<td style="padding:8px 16px 8px 0;vertical-align:top"><div style="color:#555">${escapeHtml(label)}</div><div style="font-size:1.4em;font-weight:600">${escapeHtml(value)}</div>${parts ? `<div style="color:#555">${escapeHtml(parts)}</div>` : ''}</td>`).join('\n')}
</tr></table>
<h2 style="font-size:1.1em">${escapeHtml(t('mail.belowHeading'))} (${escapeHtml(f.count(below.length))})</h2>
${
  listed.length === 0
    ? `<p>${escapeHtml(t('mail.noneBelow'))}</p>`
    : `<table style="border-collapse:collapse"><thead><tr>${headers.map((h) => `<th ${cell}>${escapeHtml(h)}</th>`).join('')}<th ${cell}></th></tr></thead><tbody>
${listed
  .map(
    (r) =>
      `<tr>${cells(r)
        .map((c) => `<td ${cell}>${escapeHtml(c)}</td>`)
        .join(
          '',
        )}<td ${cell}><a href="${escapeHtml(batchUrl(input.viewUrl, r.id))}">${escapeHtml(t('mail.openBatch'))}</a></td></tr>`,
  )
  .join('\n')}
</tbody></table>`
}
${more > 0 ? `<p>${escapeHtml(t('mail.more', { count: more }))}</p>` : ''}
<p><a href="${escapeHtml(input.viewUrl)}">${escapeHtml(t('mail.openView'))}</a></p>
<p>${escapeHtml(attached)}<br>${escapeHtml(pdfLine)}</p>
<p style="color:#555;font-size:0.9em">${escapeHtml(why)}</p>
</body></html>
`;
  return {
    to: input.to,
    subject: t('mail.subject', { view: input.viewName, period }),
    text,
    html,
    attachments: [
      { filename: input.workbook.filename, content: input.workbook.content, contentType: XLSX },
      ...(input.pdf
        ? [{ filename: input.pdf.filename, content: input.pdf.content, contentType: 'application/pdf' }]
        : []),
    ],
  };
}
