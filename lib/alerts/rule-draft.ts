import {
  type AlertDelivery,
  type AlertRule,
  type AlertRuleChange,
  type AlertRuleCreate,
  type AlertSignal,
  type AlertTarget,
  type AlertWhen,
  type SilentBy,
  type WebhookFormat,
  type WebhookInput,
} from '../contract/alerts';

/** An alert rule as its form holds it while it is written: text as typed, every kind's fields kept. */

export type WebhookDraft = {
  /** A key of the form's own (React lists), not sent. */
  key: string;
  url: string;
  format: WebhookFormat;
  /** Empty: none typed (on a change, the secret the rule holds for this URL stays). */
  secret: string;
  /** The rule already holds a secret for this webhook's URL as saved. */
  secretSet: boolean;
  /** The URL as saved; a secret is kept only for the same URL. */
  savedUrl: string | null;
};

export type RuleDraft = {
  name: string;
  when: AlertWhen;
  target: AlertTarget;
  signal: AlertSignal;
  silentDays: string;
  silentBy: SilentBy;
  crop: string;
  search: string;
  recipients: string[];
  webhooks: WebhookDraft[];
  delivery: AlertDelivery;
  digestHour: number;
  paused: boolean;
};

/** The hour a daily digest goes out when nobody chose one (the server's default too). */
export const DEFAULT_DIGEST_HOUR = 7;

let made = 0;
export const webhookKey = () => `webhook-${++made}`;

/** A new rule: the asker as its recipient, every batch that misses any target, sent at once. */
export function emptyDraft(me: string): RuleDraft {
  return {
    name: '',
    when: 'misses-target',
    target: 'any',
    signal: 'any',
    silentDays: '3',
    silentBy: 'crop',
    crop: '',
    search: '',
    recipients: me ? [me] : [],
    webhooks: [],
    delivery: 'immediate',
    digestHour: DEFAULT_DIGEST_HOUR,
    paused: false,
  };
}

/** A saved rule in its form, for a change. */
export function draftOf(rule: AlertRule): RuleDraft {
  return {
    name: rule.name,
    when: rule.when,
    target: rule.target ?? 'any',
    signal: rule.signal ?? 'any',
    silentDays: rule.silentDays === null ? '3' : String(rule.silentDays),
    silentBy: rule.silentBy ?? 'crop',
    crop: rule.crop ?? '',
    search: rule.search ?? '',
    recipients: [...rule.recipients],
    webhooks: rule.webhooks.map((w) => ({
      key: webhookKey(),
      url: w.url,
      format: w.format,
      secret: '',
      secretSet: w.secretSet,
      savedUrl: w.url,
    })),
    delivery: rule.delivery,
    digestHour: rule.digestHour,
    paused: rule.paused,
  };
}

/** A whole number of days as typed; anything else is sent as it is, for the server to name the field. */
function days(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

function webhooksOf(draft: RuleDraft): WebhookInput[] {
  return draft.webhooks.map((w) => ({
    url: w.url.trim(),
    format: w.format,
    ...(w.secret !== '' && { secret: w.secret }),
  }));
}

/** The fields every kind shares, and those of the draft's own kind only. */
function fieldsOf(draft: RuleDraft): Omit<AlertRuleCreate, 'when'> {
  return {
    name: draft.name.trim(),
    // A control chart's target is the metric it charts.
    ...((draft.when === 'misses-target' || draft.when === 'control-signal') && { target: draft.target }),
    ...(draft.when === 'control-signal' && { signal: draft.signal }),
    ...(draft.when === 'silent' && { silentDays: days(draft.silentDays), silentBy: draft.silentBy }),
    crop: draft.crop.trim() || null,
    // A silent rule counts every batch: it takes no search text.
    ...(draft.when !== 'silent' && { search: draft.search.trim() || null }),
    recipients: draft.recipients,
    webhooks: webhooksOf(draft),
    delivery: draft.delivery,
    ...(draft.delivery === 'daily' && { digestHour: draft.digestHour }),
    paused: draft.paused,
  };
}

/** `POST /api/alerts`. */
export const createBody = (draft: RuleDraft): AlertRuleCreate => ({ when: draft.when, ...fieldsOf(draft) });

/** `PATCH /api/alerts/<id>`: everything but the kind, which a rule keeps. */
export const changeBody = (draft: RuleDraft): AlertRuleChange => fieldsOf(draft);

/** Where in the form a refusal belongs: a field's name, `webhooks.<i>.<part>`, or `form` for the rest. */
export type FieldProblem = { field: string; message: string };

const FIELDS = new Set([
  'name',
  'when',
  'target',
  'signal',
  'crop',
  'search',
  'silentDays',
  'silentBy',
  'recipients',
  'webhooks',
  'delivery',
  'digestHour',
  'paused',
]);

/**
 * The field a 422's `detail` names (`webhooks[1].secret: a webhook secret has at least 16 characters`), as the
 * form's own name for it, and what is wrong; a recipient's problem names the address.
 */
export function problemOf(detail: string, draft: RuleDraft): FieldProblem {
  const match = /^([A-Za-z]+)(?:\[(\d+)\])?(?:\.([A-Za-z]+))?: ([\s\S]*)$/.exec(detail);
  if (!match || !FIELDS.has(match[1]!)) return { field: 'form', message: detail };
  const [, field, index, part, message] = match as unknown as [
    string,
    string,
    string | undefined,
    string | undefined,
    string,
  ];
  if (field === 'webhooks' && index !== undefined)
    return { field: `webhooks.${index}.${part === 'format' || part === 'secret' ? part : 'url'}`, message };
  if (field === 'recipients' && index !== undefined) {
    const address = draft.recipients[Number(index)];
    return { field, message: address ? `${address}: ${message}` : message };
  }
  return { field, message };
}
