import 'server-only';
import type { WebhookFormat } from '@/lib/contract/alerts';
import type { AlertMessage, FiredBatch } from '../alerts/message';
import { appLink, batchLink } from './alert-mail';
import { alertWords, type AlertWords } from './alert-words';

/**
 * A message as a webhook's body: `json` (plain, for scripts), `slack` (an incoming webhook's `text` and
 * `blocks`), `teams` (a message with an Adaptive Card, what Teams' incoming webhooks and Workflows take).
 * Chat messages are in English with times in UTC (Slack shows them in each reader's zone): a webhook has no
 * reader of its own.
 */

/** Batches a chat message lists (Slack allows 50 blocks a message; a card past a screenful is not read). */
const CHAT_BATCHES = 10;

const numberOrNull = (v: string | null) => (v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

function jsonPayload(origin: string, m: AlertMessage, w: AlertWords) {
  const f = m.finding;
  const batches = f.kind === 'silent' ? [] : f.batches;
  return {
    id: m.id,
    type: 'alert',
    firedAt: m.firedAt,
    summary: w.lead(m),
    organisation: m.organisation,
    rule: m.rule,
    finding:
      f.kind === 'batches'
        ? { kind: f.kind, total: f.total, listed: f.batches.length }
        : f.kind === 'control-signal'
          ? {
              kind: f.kind,
              crop: f.crop,
              metric: f.metric,
              signal: f.signal,
              limits: f.limits,
              total: f.total,
              listed: f.batches.length,
            }
          : { kind: f.kind, by: f.by, who: f.who, days: f.days, lastAt: f.lastAt },
    batches: batches.map((b) => ({
      id: b.batch.batch_id,
      name: b.batch.batch_name,
      createdAt: b.batch.batch_creation_date,
      crop: b.batch.crop_type,
      germination: numberOrNull(b.batch.avg_germination_rate),
      usable: numberOrNull(b.batch.avg_usable_seedling_rate),
      cv: numberOrNull(b.batch.avg_coefficient_of_variation),
      cellsPerTray: b.batch.total_cells_per_tray,
      warnings: b.batch.warnings,
      scannedBy: b.batch.scanned_by_email,
      comment: b.batch.comment,
      verdicts: b.verdicts,
      url: batchLink(origin, m.viewPath, b.batch.batch_id),
    })),
    links: { view: appLink(origin, m.viewPath), alerts: appLink(origin, '/alerts') },
  };
}

/** Slack's mrkdwn reserves `&`, `<` and `>` (links and mentions): people's text is escaped so it shows as written. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function figuresLine(w: AlertWords, m: AlertMessage, b: FiredBatch): string {
  return w
    .figures(b, m.targets)
    .map((x) => `${x.label} ${x.value}${x.missed ? ' ✗' : ''}`)
    .join(' · ');
}

function slackPayload(origin: string, m: AlertMessage, w: AlertWords) {
  const f = m.finding;
  const fired = f.kind === 'silent' ? [] : f.batches;
  const total = f.kind === 'silent' ? 0 : f.total;
  const unix = Math.floor(Date.parse(m.firedAt) / 1000);
  const header = `${m.rule.name}: ${w.lead(m)}`;
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(m.rule.name, 150), emoji: false } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: clip(
          `*${slackEscape(w.lead(m))}*\n${slackEscape(m.organisation.name)} · <!date^${unix}^{date_short_pretty} {time}|${m.firedAt}>`,
          3000,
        ),
      },
    },
  ];
  for (const b of fired.slice(0, CHAT_BATCHES)) {
    const lines = [
      `*<${batchLink(origin, m.viewPath, b.batch.batch_id)}|${slackEscape(clip(b.batch.batch_name, 200))}>* · ${slackEscape(b.batch.crop_type ?? 'no crop')}`,
      figuresLine(w, m, b),
      ...w.missedVerdicts(b).map((v) => `_${slackEscape(v)}_`),
    ];
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(lines.join('\n'), 3000) } });
  }
  const more = total - Math.min(fired.length, CHAT_BATCHES);
  if (more > 0)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: w.mail('alert.more', { count: more }) }] });
  blocks.push({
    type: 'actions',
    elements: [
      { type: 'button', text: { type: 'plain_text', text: 'Open in the dashboard' }, url: appLink(origin, m.viewPath) },
    ],
  });
  return { text: clip(slackEscape(header), 3000), blocks };
}

function teamsPayload(origin: string, m: AlertMessage, w: AlertWords) {
  const f = m.finding;
  const fired = f.kind === 'silent' ? [] : f.batches;
  const total = f.kind === 'silent' ? 0 : f.total;
  // Adaptive Cards' TextBlock reads a subset of Markdown: brackets and asterisks in people's text are escaped.
  const md = (text: string) => text.replace(/([\\[\]()*_`#>])/g, '\\$1');
  const body: unknown[] = [
    { type: 'TextBlock', text: md(m.rule.name), weight: 'Bolder', size: 'Medium', wrap: true },
    { type: 'TextBlock', text: md(w.lead(m)), wrap: true },
    {
      type: 'TextBlock',
      text: `${md(m.organisation.name)} · ${w.time(m.firedAt)}`,
      isSubtle: true,
      spacing: 'None',
      wrap: true,
    },
  ];
  for (const b of fired.slice(0, CHAT_BATCHES)) {
    body.push({
      type: 'Container',
      separator: true,
      items: [
        {
          type: 'TextBlock',
          text: `[${md(b.batch.batch_name)}](${batchLink(origin, m.viewPath, b.batch.batch_id)}) · ${md(b.batch.crop_type ?? 'no crop')}`,
          wrap: true,
        },
        {
          type: 'FactSet',
          facts: w.figures(b, m.targets).map((x) => ({ title: x.label, value: `${x.value}${x.missed ? ' ✗' : ''}` })),
        },
        ...w
          .missedVerdicts(b)
          .map((v) => ({ type: 'TextBlock', text: md(v), color: 'Attention', wrap: true, spacing: 'Small' })),
      ],
    });
  }
  const more = total - Math.min(fired.length, CHAT_BATCHES);
  if (more > 0)
    body.push({ type: 'TextBlock', text: w.mail('alert.more', { count: more }), isSubtle: true, wrap: true });
  return {
    type: 'message',
    summary: `${m.rule.name}: ${w.lead(m)}`,
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body,
          actions: [{ type: 'Action.OpenUrl', title: 'Open in the dashboard', url: appLink(origin, m.viewPath) }],
        },
      },
    ],
  };
}

/** The body of a webhook request for `message` in `format`, as JSON text. */
export function webhookBody(origin: string, format: WebhookFormat, message: AlertMessage): string {
  const w = alertWords('en', 'UTC');
  const payload =
    format === 'slack'
      ? slackPayload(origin, message, w)
      : format === 'teams'
        ? teamsPayload(origin, message, w)
        : jsonPayload(origin, message, w);
  return JSON.stringify(payload);
}
