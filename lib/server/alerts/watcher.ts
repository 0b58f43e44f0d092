import 'server-only';
import { randomUUID } from 'node:crypto';
import { RangeLoad } from '../../batch-api';
import { rowMaker, type Row } from '../../explorer/rows';
import { MESSAGES } from '../../i18n/messages';
import { isLanguage } from '../../i18n/languages';
import { formatUtcDate } from '../../utc-date';
import { getConfig } from '../config';
import { problemOf } from '../http/error-table';
import { errorFields, logLine } from '../logging';
import { escapeHtml } from '../notify/mail-layout';
import { sendMail } from '../notify/transport';
import type { Organisation } from '../org/organisations-store';
import { upstreamFor } from '../org/upstream';
import { settingsStore, TARGETS_SETTING } from '../settings';
import type { Addressee, ClaimedDelivery, NewDelivery, WatchState } from './alert-log-store';
import type { StoredRule } from './alerts-store';
import { alertChannels } from './channel-registry';
import { knownZone, nextDigestAt } from './digest-time';
import { evaluate, lookbackOf, type Draft } from './evaluate';
import type { AlertMessage, Finding, Recipient } from './message';

/**
 * The watcher: for each organisation with a rule, one check per interval (the JobRunner runs it on one
 * instance) reads the batches created since its watermark minus OVERLAP_MS (late arrivals), judges each rule,
 * and records what is new (a rule's keys are unique: nothing is reported twice, whatever the restarts and
 * instances); then the deliveries due go out through the channels, failed ones again later with backoff.
 * A check that cannot read the service keeps the watermark (the next one catches up from it), is recorded,
 * and after FAILURE_REPORT_AFTER_MS of failing is told to the organisation's administrators, once.
 */

/** Batches created up to this long before the watermark are read again: the service may list a batch late. */
export const OVERLAP_MS = 60 * 60_000;
/** After an outage the watcher catches up at most this far back (older batches are the page's to show). */
export const MAX_CATCH_UP_MS = 31 * 86_400_000;
/** Failing this long, a check tells the administrators (once per outage). */
export const FAILURE_REPORT_AFTER_MS = 60 * 60_000;
/** Tries of a delivery before it is given up; the waits between them double from RETRY_BASE_MS, up to an hour. */
export const MAX_ATTEMPTS = 6;
const RETRY_BASE_MS = 30_000;
/** Organisations checked at once by one pass (each within its own share of upstream connections). */
const ORGANISATIONS_AT_ONCE = 4;

export const retryDelayMs = (attempts: number) => Math.min(3_600_000, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));

type Defaults = { language: 'en' | 'de' | 'nl'; timeZone: string };

/** Every watched organisation checked, then every delivery due sent: one run of the periodic job. */
export async function runChecks(now = Date.now()): Promise<void> {
  const store = settingsStore();
  const ids = await store.alerts.watchedOrganisations();
  const organisations = new Map((await store.organisations.list()).map((o) => [o.id, o]));
  const queue = ids.flatMap((id) => (organisations.has(id) ? [organisations.get(id)!] : []));
  await Promise.all(
    Array.from({ length: Math.min(ORGANISATIONS_AT_ONCE, queue.length) }, async () => {
      for (let org = queue.shift(); org; org = queue.shift()) {
        await checkOrganisation(org, now).catch((error: unknown) =>
          logLine('error', 'alerts: a check failed', { organisation_id: org!.id, ...errorFields(error) }),
        );
      }
    }),
  );
  await deliverDue();
}

/** One organisation's check: what is new since its watermark, each rule judged, events recorded once. */
export async function checkOrganisation(
  org: Organisation,
  now = Date.now(),
): Promise<{ events: number; batches: number } | { failed: string }> {
  const store = settingsStore();
  const rules = await store.alerts.activeRules(org.id);
  if (rules.length === 0) return { events: 0, batches: 0 };
  const state = await store.alertLog.watchState(org.id);
  const firstRule = Math.min(...rules.map((r) => r.createdAt.getTime()));
  const watermark = state?.watermark?.getTime() ?? firstRule;
  // New batches are those since the watermark less the overlap; the charts and silences look further back.
  const since = Math.max(watermark - OVERLAP_MS, now - MAX_CATCH_UP_MS);
  let from = since;
  for (const rule of rules) from = Math.min(from, lookbackOf(rule, now) ?? from);

  let rows: Row[];
  try {
    rows = await loadSince(org, from);
  } catch (error) {
    const problem = problemOf(error).detail;
    const failing = await store.alertLog.checkFailed(org.id, problem);
    logLine('warn', 'alerts: the Batch Data Service could not be read; the next check catches up', {
      organisation_id: org.id,
      problem,
    });
    if (
      failing.failingSince &&
      now - failing.failingSince.getTime() >= FAILURE_REPORT_AFTER_MS &&
      (await store.alertLog.claimFailureReport(org.id))
    ) {
      await tellAdministrators(org, failing, now);
    }
    return { failed: problem };
  }

  const targets = (await store.get(org.id, TARGETS_SETTING)).value;
  const people = await store.alertLog.addressees(org.id);
  const defaults = organisationDefaults(people);
  let events = 0;
  for (const rule of rules) {
    const subscriptions = await store.alerts.subscriptions(rule.id);
    for (const draft of evaluate(rule, rows, targets, now, since)) {
      const fired = await store.alertLog.fire(org.id, rule.id, draft.keys, (fresh) =>
        eventOf(org, rule, draft, fresh, targets, { people, subscriptions, defaults, now }),
      );
      if (fired) events++;
    }
  }
  await store.alertLog.checkSucceeded(org.id, new Date(now));
  return { events, batches: rows.length };
}

/** Every batch created since `from` (ms), within the service's limits (the range loader's adaptive concurrency). */
async function loadSince(org: Organisation, from: number): Promise<Row[]> {
  const { concurrency, maxConcurrency } = getConfig();
  const load = new RangeLoad(
    await upstreamFor(org),
    { start_date: formatUtcDate(from) },
    { concurrency, maxConcurrency },
  );
  const rows: Row[] = [];
  const make = rowMaker(rows);
  for await (const chunk of load.chunks()) for (const batch of chunk) rows.push(make(batch));
  return rows;
}

type Audience = {
  people: Addressee[];
  subscriptions: Map<string, 'subscribed' | 'muted'>;
  defaults: Defaults;
  now: number;
};

/** The event a draft makes of its new keys, and where it goes: recipients and subscribers less the muted, and the webhooks. */
function eventOf(
  org: Organisation,
  rule: StoredRule,
  draft: Draft,
  fresh: ReadonlySet<string>,
  targets: AlertMessage['targets'],
  audience: Audience,
) {
  const made = draft.make(fresh);
  if (!made) return null;
  const query = made.viewQuery;
  query.set('org', org.slug);
  const message: AlertMessage = {
    id: randomUUID(),
    organisation: { id: org.id, name: org.name, slug: org.slug },
    rule: {
      id: rule.id,
      name: rule.name,
      when: rule.when,
      target: rule.target,
      crop: rule.crop,
      search: rule.search,
      delivery: rule.delivery,
    },
    targets,
    firedAt: new Date(audience.now).toISOString(),
    finding: made.finding,
    viewPath: `/batches?${query.toString()}`,
  };
  const deliveries: NewDelivery[] = [];
  const { people, outside } = recipientsOf(rule, audience);
  const digest = rule.delivery === 'immediate' ? null : rule.delivery;
  const dueAt = (zone: string) => (digest ? nextDigestAt(audience.now, zone, digest, rule.digestHour) : null);
  for (const person of people) {
    deliveries.push({ channel: 'in-app', recipient: person.email, personId: person.id });
    deliveries.push({
      channel: 'email',
      recipient: person.email,
      personId: person.id,
      digest,
      dueAt: dueAt(zoneOf(person, audience.defaults)),
    });
  }
  for (const email of outside)
    deliveries.push({
      channel: 'email',
      recipient: email,
      personId: null,
      digest,
      dueAt: dueAt(audience.defaults.timeZone),
    });
  for (const hook of rule.webhooks)
    deliveries.push({ channel: 'webhook', recipient: new URL(hook.url).host, webhook: hook });
  return {
    message,
    ruleId: rule.id,
    ruleName: rule.name,
    batchIds: made.batchIds,
    summary: summaryOf(made.finding),
    deliveries,
  };
}

/** The people a rule reaches (named as recipients or subscribed, not muted, not disabled) and its outside addresses. */
export function recipientsOf(
  rule: Pick<StoredRule, 'recipients'>,
  audience: Pick<Audience, 'people' | 'subscriptions'>,
): { people: Addressee[]; outside: string[] } {
  const byEmail = new Map(audience.people.map((p) => [p.email, p]));
  const byId = new Map(audience.people.map((p) => [p.id, p]));
  const chosen = new Map<string, Addressee>();
  const outside: string[] = [];
  for (const email of rule.recipients) {
    const person = byEmail.get(email.toLowerCase());
    if (person) chosen.set(person.id, person);
    else outside.push(email);
  }
  for (const [id, state] of audience.subscriptions) {
    const person = byId.get(id);
    if (state === 'subscribed' && person) chosen.set(id, person);
    if (state === 'muted') chosen.delete(id);
  }
  return { people: [...chosen.values()], outside };
}

/**
 * The organisation's language and zone for outside addresses: those most of its people chose in their
 * accounts (English and UTC where nobody chose).
 */
export function organisationDefaults(people: readonly Pick<Addressee, 'language' | 'timeZone'>[]): Defaults {
  const commonest = (values: (string | null)[]) => {
    const counts = new Map<string, number>();
    for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
  };
  const language = commonest(people.map((p) => (isLanguage(p.language) ? p.language : null)));
  const zone = commonest(people.map((p) => (knownZone(p.timeZone) ? p.timeZone : null)));
  return { language: isLanguage(language) ? language : 'en', timeZone: zone ?? 'UTC' };
}

const zoneOf = (person: Pick<Addressee, 'timeZone'>, defaults: Defaults) =>
  knownZone(person.timeZone) ? person.timeZone : defaults.timeZone;

/** What fired, in a line for the history (the page puts it in words of its own from the entry's rule and batches). */
function summaryOf(finding: Finding): string {
  switch (finding.kind) {
    case 'batches':
      return `${finding.total} ${finding.total === 1 ? 'batch' : 'batches'}: ${finding.batches
        .slice(0, 5)
        .map((b) => b.batch.batch_name)
        .join(', ')}${finding.total > 5 ? ', …' : ''}`;
    case 'control-signal':
      return `${finding.crop}, ${finding.metric}: ${finding.total} ${finding.signal === 'limits' ? 'beyond the control limits' : 'in a run on one side of the centre line'}`;
    case 'silent':
      return `${finding.who}: no batch for ${finding.days} days`;
  }
}

/** Every delivery due now: immediate e-mails and webhooks, then the digests whose hour has come. */
export async function deliverDue(): Promise<{ delivered: number; failed: number }> {
  const store = settingsStore();
  const channels = alertChannels();
  const context = new DeliveryContext();
  let delivered = 0,
    failed = 0;
  const settle = async (ids: string[], attempts: number, work: () => Promise<void>) => {
    try {
      await work();
      await store.alertLog.delivered(ids);
      delivered += ids.length;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      await store.alertLog.attemptFailed(
        ids,
        detail,
        attempts >= MAX_ATTEMPTS ? null : new Date(Date.now() + retryDelayMs(attempts)),
      );
      failed += ids.length;
    }
  };
  // Bounded passes: what is claimed meanwhile waits for the next run.
  for (let pass = 0; pass < 20; pass++) {
    const due = await store.alertLog.claimDue(50);
    if (due.length === 0) break;
    for (const d of due) await settle([d.id], d.attempts, () => sendOne(d, context, channels));
  }
  for (let pass = 0; pass < 20; pass++) {
    const digests = await store.alertLog.claimDigests(200);
    if (digests.length === 0) break;
    for (const digest of digests) {
      await settle(digest.ids, 1, async () =>
        channels.email(
          await context.recipient(digest.organisationId, digest.recipient, digest.ruleId),
          digest.messages,
          {
            cadence: digest.cadence,
            since: digest.since.toISOString(),
          },
        ),
      );
    }
  }
  return { delivered, failed };
}

async function sendOne(
  d: ClaimedDelivery,
  context: DeliveryContext,
  channels: ReturnType<typeof alertChannels>,
): Promise<void> {
  if (d.channel === 'webhook') {
    const hook = d.webhook!;
    const secret = settingsStore().alerts.webhookSecret(d.organisationId, hook);
    await channels.webhook({ url: hook.url, format: hook.format, secret }, d.message);
    return;
  }
  await channels.email(await context.recipient(d.organisationId, d.recipient, d.message.rule.id), [d.message], null);
}

/** What one delivery pass looks up once: each organisation's people, and the rules' unsubscribe keys. */
class DeliveryContext {
  #people = new Map<string, Promise<Addressee[]>>();
  #rules = new Map<string, Promise<(StoredRule & { unsubscribeKey?: string }) | null>>();

  /** The recipient as their account has them (language, zone); an outside address in the organisation's, with its unsubscribe link. */
  async recipient(organisationId: string, email: string, ruleId: string | null): Promise<Recipient> {
    const store = settingsStore();
    let people = this.#people.get(organisationId);
    if (!people) this.#people.set(organisationId, (people = store.alertLog.addressees(organisationId)));
    const all = await people;
    const person = all.find((p) => p.email === email.toLowerCase());
    const defaults = organisationDefaults(all);
    if (person)
      return {
        email,
        language: isLanguage(person.language) ? person.language : defaults.language,
        timeZone: zoneOf(person, defaults),
        personId: person.id,
        unsubscribePath: null,
      };
    let rule = ruleId ? this.#rules.get(ruleId) : undefined;
    if (ruleId && !rule) this.#rules.set(ruleId, (rule = store.alerts.rule(organisationId, ruleId)));
    const found = await rule;
    const unsubscribePath = found?.unsubscribeKey
      ? `/api/alerts/unsubscribe?token=${encodeURIComponent(store.alerts.unsubscribeToken({ id: found.id, unsubscribeKey: found.unsubscribeKey }, email))}`
      : null;
    return { email, language: defaults.language, timeZone: defaults.timeZone, personId: null, unsubscribePath };
  }
}

/** The administrators told, once per outage: an e-mail each (in their language) and an entry in their Alerts history. */
async function tellAdministrators(org: Organisation, failing: WatchState, now: number): Promise<void> {
  const store = settingsStore();
  const people = await store.alertLog.addressees(org.id);
  const defaults = organisationDefaults(people);
  const admins = people.filter((p) => p.role === 'admin');
  const since = failing.failingSince ?? new Date(now);
  const deliveries: NewDelivery[] = [];
  for (const admin of admins) {
    const language = isLanguage(admin.language) ? admin.language : defaults.language;
    const words = MESSAGES[language].people.alertOutage;
    const when = new Intl.DateTimeFormat(language, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zoneOf(admin, defaults),
      timeZoneName: 'short',
    }).format(since);
    const fill = (text: string) =>
      text.replace(/\{(org|since|problem)\}/g, (_, k: string) =>
        k === 'org' ? org.name : k === 'since' ? when : (failing.lastError ?? ''),
      );
    const text = fill(words.body);
    const sent = await sendMail({
      to: admin.email,
      subject: fill(words.subject),
      text,
      html: `<p>${escapeHtml(text)}</p>`,
    }).then(
      () => ({ delivered: true, detail: null }),
      (error: unknown) => ({ delivered: false, detail: error instanceof Error ? error.message : String(error) }),
    );
    deliveries.push({ channel: 'in-app', recipient: admin.email, personId: admin.id });
    deliveries.push({ channel: 'email', recipient: admin.email, personId: admin.id, digest: null, dueAt: null, sent });
  }
  // Kept as the history shows it; no channel ever sends this message, so it carries the outage in place of a finding.
  const notice = {
    id: randomUUID(),
    firedAt: new Date(now).toISOString(),
    organisation: { id: org.id, name: org.name, slug: org.slug },
    outage: { since: since.toISOString(), problem: failing.lastError },
  };
  await store.alertLog.record(org.id, {
    message: notice as unknown as AlertMessage,
    ruleId: null,
    ruleName: 'Batch Data Service',
    batchIds: [],
    summary: `the Batch Data Service has not answered since ${since.toISOString()}: ${failing.lastError ?? ''}`,
    deliveries,
  });
  logLine('error', 'alerts: the Batch Data Service has failed for an hour; the administrators were told', {
    organisation_id: org.id,
    failing_since: since.toISOString(),
  });
}

/** Starts the periodic check on the job runner (one instance runs each). */
export async function startWatching(runner: {
  every(name: string, everySeconds: number, handler: () => Promise<void>): Promise<void>;
}): Promise<void> {
  const { watchIntervalS } = getConfig().alerts;
  await runner.every('alerts-check', watchIntervalS, () => runChecks());
  logLine('info', 'alerts: watching', { interval_s: watchIntervalS });
}
