import 'server-only';
import type { AlertRule, AlertRuleChange, AlertRuleCreate, WebhookFormat, WebhookInput } from '../../contract/alerts';
import { AppError } from '../http/app-error';

/** A rule's definition as stored, every optional field settled (the defaults a rule gets when it does not say). */
export type RuleDefinition = Pick<
  AlertRule,
  | 'name'
  | 'when'
  | 'target'
  | 'signal'
  | 'crop'
  | 'search'
  | 'silentDays'
  | 'silentBy'
  | 'recipients'
  | 'delivery'
  | 'digestHour'
  | 'paused'
> & { webhooks: WebhookInput[] };

/** The hour a daily digest goes out when the rule does not say, in each recipient's zone. */
export const DEFAULT_DIGEST_HOUR = 7;

const invalid = (field: string, message: string) => new AppError('invalid_input', message, { field });

/**
 * What a kind of rule takes, beyond the body's shape: a `silent` rule needs `silentDays` and takes `silentBy`;
 * `target` belongs to `misses-target` and `control-signal` (the chart's metric), `signal` to `control-signal`.
 * A field another kind would take is refused (422 naming it) rather than kept and ignored.
 */
function checkKind(d: RuleDefinition, given: Partial<Record<keyof RuleDefinition, unknown>>): void {
  const refuse = (field: 'target' | 'signal' | 'silentDays' | 'silentBy', kinds: string) => {
    if (given[field] !== undefined && given[field] !== null)
      throw invalid(field, `only a ${kinds} rule takes ${field}`);
  };
  if (d.when !== 'misses-target' && d.when !== 'control-signal') refuse('target', 'misses-target or control-signal');
  if (d.when !== 'control-signal') refuse('signal', 'control-signal');
  if (d.when !== 'silent') {
    refuse('silentDays', 'silent');
    refuse('silentBy', 'silent');
  } else if (d.silentDays === null) {
    throw invalid('silentDays', 'a silent rule needs the number of days without a batch (1 to 365)');
  }
  if (d.when === 'silent' && d.search !== null)
    throw invalid('search', 'a silent rule counts every batch; it takes no search text');
}

const blankToNull = (text: string | null | undefined) =>
  text === undefined || text === null || text.trim() === '' ? null : text.trim();

/** A new rule's definition from `POST /api/alerts` (already through AlertRuleCreateSchema). */
export function definitionOf(input: AlertRuleCreate): RuleDefinition {
  const d: RuleDefinition = {
    name: input.name,
    when: input.when,
    target: input.when === 'misses-target' || input.when === 'control-signal' ? (input.target ?? 'any') : null,
    signal: input.when === 'control-signal' ? (input.signal ?? 'any') : null,
    crop: blankToNull(input.crop),
    search: blankToNull(input.search),
    silentDays: input.silentDays ?? null,
    silentBy: input.when === 'silent' ? (input.silentBy ?? 'crop') : null,
    recipients: unique(input.recipients),
    webhooks: input.webhooks ?? [],
    delivery: input.delivery,
    digestHour: input.digestHour ?? DEFAULT_DIGEST_HOUR,
    paused: input.paused ?? false,
  };
  checkKind(d, input);
  checkWebhooks(d.webhooks);
  return d;
}

/** A rule after `PATCH /api/alerts/<id>`: the fields given replace the rule's, the rest stay. */
export function changedDefinition(current: RuleDefinition, change: AlertRuleChange): RuleDefinition {
  const d: RuleDefinition = {
    ...current,
    ...(change.name !== undefined && { name: change.name }),
    ...(change.target !== undefined && { target: change.target }),
    ...(change.signal !== undefined && { signal: change.signal }),
    ...(change.crop !== undefined && { crop: blankToNull(change.crop) }),
    ...(change.search !== undefined && { search: blankToNull(change.search) }),
    ...(change.silentDays !== undefined && { silentDays: change.silentDays }),
    ...(change.silentBy !== undefined && { silentBy: change.silentBy }),
    ...(change.recipients !== undefined && { recipients: unique(change.recipients) }),
    ...(change.webhooks !== undefined && { webhooks: change.webhooks }),
    ...(change.delivery !== undefined && { delivery: change.delivery }),
    ...(change.digestHour !== undefined && { digestHour: change.digestHour }),
    ...(change.paused !== undefined && { paused: change.paused }),
  };
  checkKind(d, change);
  checkWebhooks(d.webhooks);
  return d;
}

function checkWebhooks(hooks: readonly { url: string; format: WebhookFormat }[]): void {
  const seen = new Set<string>();
  hooks.forEach((hook, i) => {
    if (seen.has(hook.url)) throw invalid(`webhooks[${i}].url`, 'the same URL is given twice');
    seen.add(hook.url);
  });
}

const unique = (addresses: readonly string[]) => [...new Set(addresses)];
