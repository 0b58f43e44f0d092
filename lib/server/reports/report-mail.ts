import 'server-only';
import { MAX_LISTED_BATCHES } from '../../contract/alerts';
import { missedKinds, missLookup, MISS_KINDS } from '../../explorer/targets/misses';
import type { Row } from '../../explorer/rows';
import { DASH } from '../../i18n/formats';
import { readerLocale } from '../../i18n/languages';
import type { MailMessage } from '../notify/mail-message';
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
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The period a report covers, in the reader's notation: `21 – 27 Nov 2026`, or all time. */
export function periodText(view: Pick<ViewBatches, 'days'>, w: ReportWords, allTime: string): string {
  const { from, to } = view.days;
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
  if (from === undefined && to === undefined) return allTime;
  if (from === undefined) return `… – ${w.say.f.date(day(to!), 'UTC')}`;
  if (to === undefined) return `${w.say.f.date(day(from), 'UTC')} – …`;
  return from === to ? w.say.f.date(day(from), 'UTC') : w.say.f.dateRange(day(from), day(to), 'UTC');
}

/** The batch's own link: the view with its detail dialog open (`batch=`). */
const batchUrl = (viewUrl: string, id: string) => `${viewUrl}${viewUrl.includes('?') ? '&' : '?'}batch=${encodeURIComponent(id)}`;

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
  const { summary: s, state, rows, targets } = view;
  const period = periodText(view, w, t('mail.allTime'));
  const kinds = MISS_KINDS.filter((k) => s.judgedBy[k] > 0);
  const cards: [string, string, string?][] = [
    [te('summary.batches'), f.count(s.count)],
    [te('summary.germination'), f.percent(s.germination)],
    [te('summary.usable'), f.percent(s.usable)],
    [
      te('summary.below'),
      s.belowShare === null ? f.count(s.below) : `${f.count(s.below)} (${f.percent(s.belowShare * 100)})`,
      kinds.map((k) => te('summary.belowCount', { kind: te(`targetKinds.${k}`), count: f.count(s.belowBy[k]) })).join(' · ') || undefined,
    ],
  ];
  const misses = missLookup(targets);
  const below = rows.filter((r) => (misses(r) & 7) !== 0);
  const listed = below.slice(0, MAX_LISTED_BATCHES);
  const pct = (v: number | null) => (v === null ? DASH : f.percent(v));
  const headers = [`${te('columns.date')} (${state.tz})`, te('columns.name'), te('columns.crop'), te('columns.below'), te('columns.germination'), te('columns.usable'), te('columns.cv')];
  const cells = (r: Row) => [
    f.dateTime(r.time, state.tz),
    r.name,
    r.crop ?? DASH,
    missedKinds(misses(r)).map((k) => te(`targetKinds.${k}`)).join(', '),
    pct(r.germination),
    pct(r.usable),
    pct(r.cv),
  ];
  const more = below.length - listed.length;
  const intro = t('mail.intro', { view: input.viewName, organisation: input.organisation, period, zone: state.tz });
  const attached = t('mail.attached', { file: input.workbook.filename });
  // The printed report needs a browser: the e-mail says where it is made (the view's Print report).
  const pdfLine = t('mail.pdfLink');
  const why = t('mail.why', { view: input.viewName });

  const text = [
    intro,
    '',
    `${t('mail.summary')}:`,
    ...cards.map(([label, value, parts]) => `  ${label}: ${value}${parts ? ` (${parts})` : ''}`),
    '',
    `${t('mail.belowHeading')} (${f.count(below.length)}):`,
    ...(listed.length === 0 ? [`  ${t('mail.noneBelow')}`] : listed.map((r) => `  - ${cells(r).join(' | ')}\n    ${batchUrl(input.viewUrl, r.id)}`)),
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
<html lang="${w.language}"><head><meta charset="utf-8"><title>${escape(input.viewName)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1a1a1a;max-width:960px">
<p>${escape(intro)}</p>
<h2 style="font-size:1.1em">${escape(t('mail.summary'))}</h2>
<table role="presentation" style="border-collapse:collapse"><tr>
${cards.map(([label, value, parts]) => `<td style="padding:8px 16px 8px 0;vertical-align:top"><div style="color:#555">${escape(label)}</div><div style="font-size:1.4em;font-weight:600">${escape(value)}</div>${parts ? `<div style="color:#555">${escape(parts)}</div>` : ''}</td>`).join('\n')}
</tr></table>
<h2 style="font-size:1.1em">${escape(t('mail.belowHeading'))} (${escape(f.count(below.length))})</h2>
${
  listed.length === 0
    ? `<p>${escape(t('mail.noneBelow'))}</p>`
    : `<table style="border-collapse:collapse"><thead><tr>${headers.map((h) => `<th ${cell}>${escape(h)}</th>`).join('')}<th ${cell}></th></tr></thead><tbody>
${listed.map((r) => `<tr>${cells(r).map((c) => `<td ${cell}>${escape(c)}</td>`).join('')}<td ${cell}><a href="${escape(batchUrl(input.viewUrl, r.id))}">${escape(t('mail.openBatch'))}</a></td></tr>`).join('\n')}
</tbody></table>`
}
${more > 0 ? `<p>${escape(t('mail.more', { count: more }))}</p>` : ''}
<p><a href="${escape(input.viewUrl)}">${escape(t('mail.openView'))}</a></p>
<p>${escape(attached)}<br>${escape(pdfLine)}</p>
<p style="color:#555;font-size:0.9em">${escape(why)}</p>
</body></html>
`;
  return {
    to: input.to,
    subject: t('mail.subject', { view: input.viewName, period }),
    text,
    html,
    attachments: [{ filename: input.workbook.filename, content: input.workbook.content, contentType: XLSX }],
  };
}
