import 'server-only';
import { MAX_LISTED_BATCHES, type AlertDelivery } from '@/lib/contract/alerts';
import { targetFor, TARGET_METRICS, type Targets } from '@/lib/contract/targets';
import type { AlertMessage, FiredBatch, Recipient } from '../alerts/message';
import type { MailMessage } from './mail-message';
import { alertWords, type AlertWords } from './alert-words';
import { renderHtml, renderText, subjectLine, type BatchCard, type Block } from './mail-layout';

/** Where an alert's links lead: the app's public origin and a path of it. */
export const appLink = (origin: string, path: string) => new URL(path, origin).toString();

/** The view of the signal with one batch's detail open (`batch=`): the batch among the others it fired with. */
export function batchLink(origin: string, viewPath: string, batchId: string): string {
  const url = new URL(viewPath, origin);
  url.searchParams.set('batch', batchId);
  return url.toString();
}

type Digest = null | { cadence: Exclude<AlertDelivery, 'immediate'>; since: string };

function card(w: AlertWords, origin: string, message: AlertMessage, fired: FiredBatch): BatchCard {
  const b = fired.batch;
  const facts = [
    w.mail('alert.created', { time: w.time(b.batch_creation_date) }),
    b.crop_type ?? w.mail('alert.noCrop'),
  ];
  if (b.scanned_by_email) facts.push(w.mail('alert.scannedBy', { who: b.scanned_by_email }));
  if (b.warnings) facts.push(w.mail('alert.hasWarnings'));
  return {
    name: b.batch_name,
    href: batchLink(origin, message.viewPath, b.batch_id),
    facts: facts.join(' · '),
    figures: w.figures(fired, message.targets),
    verdicts: w.missedVerdicts(fired),
    comment: b.comment,
  };
}

/** The targets of the crops the batches are of (the general ones for a batch without a crop), as a table. */
function targetsTable(w: AlertWords, targets: Targets, crops: (string | null)[]): Block[] {
  const distinct = [...new Set(crops)].sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)));
  if (distinct.length === 0) return [];
  const rows = distinct.map((crop) => [
    crop ?? w.mail('alert.generalTargets'),
    ...TARGET_METRICS.map((m) => w.target(targetFor(targets, crop, m))),
  ]);
  return [
    { kind: 'heading', level: 3, text: w.mail('alert.targets') },
    { kind: 'table', head: [w.cropColumn, ...TARGET_METRICS.map(w.metricName)], rows },
  ];
}

/** The batches a finding lists (none for a silence). */
const firedOf = (m: AlertMessage): FiredBatch[] => (m.finding.kind === 'silent' ? [] : m.finding.batches);
const totalOf = (m: AlertMessage): number => (m.finding.kind === 'silent' ? 0 : m.finding.total);

/** What one message says about its finding beyond the batches: the chart's limits, or when the last batch was. */
function findingNote(w: AlertWords, m: AlertMessage): Block[] {
  const finding = m.finding;
  if (finding.kind === 'control-signal') {
    const { centre, lcl, ucl } = finding.limits;
    return [
      {
        kind: 'paragraph',
        parts: [
          w.mail('alert.chartLimits', { centre: w.f.percent(centre), lcl: w.f.percent(lcl), ucl: w.f.percent(ucl) }),
        ],
      },
    ];
  }
  if (finding.kind === 'silent') {
    return [
      {
        kind: 'paragraph',
        parts: [
          finding.lastAt ? w.mail('alert.lastBatch', { time: w.time(finding.lastAt) }) : w.mail('alert.noLastBatch'),
        ],
      },
    ];
  }
  return [];
}

/** The listed batches (at most MAX_LISTED_BATCHES) and, past them, "and N more" with the link to all of them. */
function batchBlocks(w: AlertWords, origin: string, m: AlertMessage, fired: FiredBatch[], unlisted: number): Block[] {
  const listed = fired.slice(0, MAX_LISTED_BATCHES);
  const more = unlisted + fired.length - listed.length;
  const blocks: Block[] =
    listed.length > 0 ? [{ kind: 'batches', cards: listed.map((b) => card(w, origin, m, b)) }] : [];
  if (more > 0)
    blocks.push({
      kind: 'paragraph',
      parts: [{ text: w.mail('alert.more', { count: more }), href: appLink(origin, m.viewPath) }],
    });
  return blocks;
}

/** The link to the view of the finding: the control chart, the crop's or person's batches, or the batches found. */
const openText = (w: AlertWords, m: AlertMessage) =>
  m.finding.kind === 'control-signal'
    ? w.mail('alert.openChart')
    : m.finding.kind === 'silent'
      ? w.mail('alert.openBatches')
      : w.mail('alert.openView');

function openButton(w: AlertWords, origin: string, m: AlertMessage): Block {
  return { kind: 'button', text: openText(w, m), href: appLink(origin, m.viewPath) };
}

/** Why the recipient gets it, and how to stop: Alerts in the app for a person, the unsubscribe link for an outside address. */
function footer(w: AlertWords, origin: string, to: Recipient, why: string): Block[] {
  const blocks: Block[] = [
    { kind: 'paragraph', small: true, parts: [w.mail('alert.zone', { zone: w.zone })] },
    { kind: 'divider' },
  ];
  const stop =
    to.personId === null && to.unsubscribePath
      ? { text: w.mail('alert.unsubscribe'), href: appLink(origin, to.unsubscribePath) }
      : { text: w.mail('alert.manage'), href: appLink(origin, '/alerts') };
  blocks.push({ kind: 'paragraph', small: true, parts: [why, ' ', stop] });
  return blocks;
}

function unsubscribeHeaders(origin: string, to: Recipient): Record<string, string> | undefined {
  if (to.personId !== null || !to.unsubscribePath) return undefined;
  // RFC 8058: mail clients offer "unsubscribe" and POST `List-Unsubscribe=One-Click` to the link themselves.
  return {
    'List-Unsubscribe': `<${appLink(origin, to.unsubscribePath)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** One rule's finding, sent as it happened. */
function immediate(
  w: AlertWords,
  origin: string,
  to: Recipient,
  m: AlertMessage,
): { subject: string; blocks: Block[] } {
  const fired = firedOf(m);
  const lead = w.lead(m);
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: m.rule.name },
    { kind: 'heading', level: 2, text: lead },
    {
      kind: 'paragraph',
      parts: [w.mail('alert.fired', { rule: m.rule.name, organisation: m.organisation.name, time: w.time(m.firedAt) })],
    },
    ...findingNote(w, m),
    ...batchBlocks(w, origin, m, fired, totalOf(m) - fired.length),
    openButton(w, origin, m),
    ...targetsTable(w, m.targets, cropsOf(m)),
  ];
  const why =
    to.personId === null
      ? w.mail('alert.whyOutside', { rule: m.rule.name, organisation: m.organisation.name })
      : w.mail('alert.whyPerson', { rule: m.rule.name, organisation: m.organisation.name });
  return {
    subject: w.mail('alert.subject', { rule: m.rule.name, what: lead }),
    blocks: [...blocks, ...footer(w, origin, to, why)],
  };
}

/** The crops whose targets a message's batches are judged by (null: the general ones). */
function cropsOf(m: AlertMessage): (string | null)[] {
  if (m.finding.kind === 'silent') return [];
  if (m.finding.kind === 'control-signal') return [m.finding.crop];
  return m.finding.batches.map((b) => b.batch.crop_type);
}

/** A digest's sections: one per crop (its name; batches without one; findings about no one crop last). */
type Section = { key: string; title: string; items: { message: AlertMessage; fired: FiredBatch[] }[] };
const NO_CROP = '\u0000none';
const OTHER = '\u0000other';

function sections(w: AlertWords, messages: readonly AlertMessage[]): Section[] {
  const byKey = new Map<string, Section>();
  const add = (key: string, title: string, message: AlertMessage, fired: FiredBatch[]) => {
    let section = byKey.get(key);
    if (!section) byKey.set(key, (section = { key, title, items: [] }));
    section.items.push({ message, fired });
  };
  for (const m of messages) {
    const f = m.finding;
    if (f.kind === 'control-signal') add(f.crop, f.crop, m, f.batches);
    else if (f.kind === 'silent') {
      if (f.by === 'crop') add(f.who, f.who, m, []);
      else add(OTHER, w.mail('digest.otherFindings'), m, []);
    } else {
      const crops = new Map<string | null, FiredBatch[]>();
      for (const b of f.batches) crops.set(b.batch.crop_type, [...(crops.get(b.batch.crop_type) ?? []), b]);
      for (const [crop, fired] of crops) add(crop ?? NO_CROP, crop ?? w.mail('digest.withoutCrop'), m, fired);
    }
  }
  const rank = (s: Section) => (s.key === OTHER ? 2 : s.key === NO_CROP ? 1 : 0);
  return [...byKey.values()].sort((a, b) => rank(a) - rank(b) || a.title.localeCompare(b.title, w.language));
}

/** Everything since the last digest, grouped by crop. */
function digestMail(
  w: AlertWords,
  origin: string,
  to: Recipient,
  messages: readonly AlertMessage[],
  digest: NonNullable<Digest>,
): { subject: string; blocks: Block[] } {
  const organisation = messages[0]?.organisation.name ?? '';
  const subject = w.mail(`digest.${digest.cadence}.subject`, { organisation, count: messages.length });
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: subject },
    { kind: 'paragraph', parts: [w.mail('digest.since', { organisation, time: w.time(digest.since) })] },
  ];
  // "and N more" of a finding goes once, under its first section.
  const moreSaid = new Set<string>();
  for (const section of sections(w, messages)) {
    blocks.push({ kind: 'heading', level: 2, text: section.title });
    for (const { message: m, fired } of section.items) {
      const unlisted = moreSaid.has(m.id) ? 0 : totalOf(m) - firedOf(m).length;
      moreSaid.add(m.id);
      blocks.push(
        { kind: 'heading', level: 3, text: m.rule.name },
        {
          kind: 'paragraph',
          parts: [
            m.finding.kind === 'silent' ? w.lead(m) : w.lead(m, m.finding, fired.length),
            ' · ',
            w.time(m.firedAt),
          ],
        },
        ...findingNote(w, m),
        ...batchBlocks(w, origin, m, fired, unlisted),
        ...(fired.length === 0 || m.finding.kind === 'control-signal'
          ? [{ kind: 'paragraph' as const, parts: [{ text: openText(w, m), href: appLink(origin, m.viewPath) }] }]
          : []),
      );
    }
  }
  blocks.push(
    ...targetsTable(
      w,
      messages[0]?.targets ?? { general: { germination: null, usable: null, cv: null }, crops: {} },
      messages.flatMap(cropsOf),
    ),
  );
  const why = w.mail(`digest.${digest.cadence}.${to.personId === null ? 'whyOutside' : 'whyPerson'}`, { organisation });
  return { subject, blocks: [...blocks, ...footer(w, origin, to, why)] };
}

/**
 * The e-mail to `to` about `messages`: one message sent as it happened (`digest` null), or a digest of all of
 * them since `digest.since`; in the recipient's language and zone, links on `origin` (APP_ORIGIN).
 */
export function alertMail(
  origin: string,
  to: Recipient,
  messages: readonly AlertMessage[],
  digest: Digest,
): MailMessage {
  if (messages.length === 0) throw new Error('an alert e-mail needs at least one message');
  if (digest === null && messages.length > 1)
    throw new Error('an immediate alert e-mail carries one message (a digest carries several)');
  const w = alertWords(to.language, to.timeZone);
  const { subject, blocks } =
    digest === null ? immediate(w, origin, to, messages[0]!) : digestMail(w, origin, to, messages, digest);
  const line = subjectLine(subject);
  return {
    to: to.email,
    subject: line,
    text: renderText(blocks),
    html: renderHtml(to.language, line, blocks),
    headers: unsubscribeHeaders(origin, to),
  };
}
