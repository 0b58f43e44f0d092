import 'server-only';
import { sql, type Transaction } from 'kysely';
import type {
  AlertChannel,
  AlertDelivery,
  AlertDeliveryState,
  AlertHistory,
  AlertHistoryEntry,
  AlertWhat,
} from '../../contract/alerts';
import type { Role } from '../people/roles';
import { NOW, UUID, type Guard, type SettingsDb, type SettingsTables } from '../settings/database';
import type { AlertMessage } from './message';

/** How far an organisation's batches have been watched, and how its checks have gone. */
export type WatchState = {
  watermark: Date | null;
  lastSuccessAt: Date | null;
  failingSince: Date | null;
  failureReportedAt: Date | null;
  lastError: string | null;
};

/** A delivery to make when an event fires: one channel, one recipient; e-mails may wait for a digest. */
export type NewDelivery =
  | {
      channel: 'email';
      recipient: string;
      personId: string | null;
      digest: Exclude<AlertDelivery, 'immediate'> | null;
      /** When a digest goes out; null: now (the database's clock, which the deliveries are claimed by). */
      dueAt: Date | null;
      /** Sent already (a notice mailed at once): recorded as it went. */
      sent?: { delivered: boolean; detail: string | null };
    }
  | { channel: 'webhook'; recipient: string; webhook: { url: string; format: string; secret: string } }
  | { channel: 'in-app'; recipient: string; personId: string };

/** An event to record: a rule's finding (its message) and where it goes. */
export type NewEvent = {
  message: AlertMessage;
  ruleId: string | null;
  ruleName: string;
  batchIds: string[];
  summary: string;
  deliveries: NewDelivery[];
};

/** A delivery claimed for sending: its row, and the message(s) it carries. */
export type ClaimedDelivery = {
  id: string;
  organisationId: string;
  channel: 'email' | 'webhook';
  recipient: string;
  personId: string | null;
  webhook: { url: string; format: 'json' | 'slack' | 'teams'; secret: string } | null;
  attempts: number;
  message: AlertMessage;
};

/** A digest due: every waiting e-mail of one recipient and cadence in one organisation. */
export type DueDigest = {
  organisationId: string;
  recipient: string;
  personId: string | null;
  ruleId: string | null;
  cadence: Exclude<AlertDelivery, 'immediate'>;
  ids: string[];
  messages: AlertMessage[];
  since: Date;
};

/** A member of an organisation as the watcher addresses them. */
export type Addressee = {
  id: string;
  email: string;
  name: string;
  role: Role;
  language: string | null;
  timeZone: string | null;
};

export type HistoryFilter = { limit: number; ruleId?: string; mine?: boolean };

/** A claimed delivery not confirmed within this long is claimed again (its instance went away mid-send). */
const CLAIM_LEASE_MS = 5 * 60_000;
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * What the watcher remembers: how far each organisation was watched, what each rule has reported (one row per
 * rule and key, so nothing is reported twice whatever the restarts and instances), the events that fired and
 * their deliveries (waiting, claimed, delivered or failed; in-app ones read or not): the alerts history.
 */
export class AlertLogStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
  ) {}

  async watchState(organisationId: string): Promise<WatchState | null> {
    const row = await this.guard(() =>
      this.db.selectFrom('alert_watch').selectAll().where('organisation_id', '=', organisationId).executeTakeFirst(),
    );
    if (!row) return null;
    return {
      watermark: row.watermark,
      lastSuccessAt: row.last_success_at,
      failingSince: row.failing_since,
      failureReportedAt: row.failure_reported_at,
      lastError: row.last_error,
    };
  }

  /** A check that read the service: the watermark moves on, any failure is over. */
  async checkSucceeded(organisationId: string, watermark: Date): Promise<void> {
    const values = {
      last_check_at: NOW,
      last_success_at: NOW,
      failing_since: null,
      failure_reported_at: null,
      last_error: null,
    };
    await this.guard(() =>
      this.db
        .insertInto('alert_watch')
        .values({ organisation_id: organisationId, watermark, ...values })
        // Never backwards: a slow check finishing after a later one keeps the later one's watermark.
        .onConflict((oc) =>
          oc
            .column('organisation_id')
            .doUpdateSet({ ...values, watermark: sql`greatest(alert_watch.watermark, excluded.watermark)` }),
        )
        .execute(),
    );
  }

  /**
   * A rule taken out of its pause in an organisation no other rule kept watched: the watch starts again now,
   * so that what was created during the pause is not reported as new. The watermark is set `overlapMs` ahead,
   * as checks read from the watermark less that overlap: the first ones read from now.
   */
  async resumeWatch(organisationId: string, ruleId: string, overlapMs: number): Promise<void> {
    await this.guard(() =>
      this.db
        .updateTable('alert_watch')
        .set({ watermark: sql`greatest(alert_watch.watermark, ${NOW} + ${`${overlapMs} milliseconds`}::interval)` })
        .where('organisation_id', '=', organisationId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('alert_rules')
                .select('id')
                .where('organisation_id', '=', organisationId)
                .where('paused', '=', false)
                .where('id', '<>', ruleId),
            ),
          ),
        )
        .execute(),
    );
  }

  /** A check that could not read the service: when the failure began (kept from the first failed check). */
  async checkFailed(organisationId: string, problem: string): Promise<WatchState> {
    await this.guard(() =>
      this.db
        .insertInto('alert_watch')
        .values({
          organisation_id: organisationId,
          last_check_at: NOW,
          failing_since: NOW,
          last_error: problem.slice(0, 500),
        })
        .onConflict((oc) =>
          oc.column('organisation_id').doUpdateSet({
            last_check_at: NOW,
            failing_since: sql`coalesce(alert_watch.failing_since, ${NOW})`,
            last_error: problem.slice(0, 500),
          }),
        )
        .execute(),
    );
    return (await this.watchState(organisationId))!;
  }

  /** Marks the failure reported to the administrators; true for the one caller that did so first. */
  async claimFailureReport(organisationId: string): Promise<boolean> {
    const row = await this.guard(() =>
      this.db
        .updateTable('alert_watch')
        .set({ failure_reported_at: NOW })
        .where('organisation_id', '=', organisationId)
        .where('failing_since', 'is not', null)
        .where('failure_reported_at', 'is', null)
        .returning('organisation_id')
        .executeTakeFirst(),
    );
    return Boolean(row);
  }

  /**
   * Records what a rule found, once: `keys` not reported by this rule before are claimed, and `build` makes the
   * event of those alone (null: nothing to send), all in one transaction (a crash leaves neither).
   */
  async fire(
    organisationId: string,
    ruleId: string,
    keys: readonly string[],
    build: (fresh: ReadonlySet<string>) => NewEvent | null,
  ): Promise<NewEvent | null> {
    if (keys.length === 0) return null;
    return this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        const fresh = new Set<string>();
        // In slices: a catch-up may find thousands of batches, and a statement has a parameter limit.
        for (let i = 0; i < keys.length; i += 1000) {
          const rows = await trx
            .insertInto('alert_reported')
            .values(keys.slice(i, i + 1000).map((key) => ({ rule_id: ruleId, key, at: NOW })))
            .onConflict((oc) => oc.columns(['rule_id', 'key']).doNothing())
            .returning('key')
            .execute();
          for (const r of rows) fresh.add(r.key);
        }
        if (fresh.size === 0) return null;
        const event = build(fresh);
        if (!event) return null;
        await insertEvent(trx, organisationId, event);
        return event;
      }),
    );
  }

  /** Records an event that no rule's key dedupes (a notice to the administrators). */
  async record(organisationId: string, event: NewEvent): Promise<void> {
    await this.guard(() => this.db.transaction().execute((trx) => insertEvent(trx, organisationId, event)));
  }

  /**
   * Claims the immediate deliveries due (e-mails, webhooks), at most `limit`: each is leased for CLAIM_LEASE_MS,
   * so that an instance that stops mid-send leaves it to the next pass, and two passes never take the same one.
   */
  async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.#claim('pending', limit);
    return rows.map((r) => ({
      id: String(r.id),
      organisationId: r.organisation_id,
      channel: r.channel as 'email' | 'webhook',
      recipient: r.recipient,
      personId: r.person_id,
      webhook: r.webhook ? parsed<ClaimedDelivery['webhook']>(r.webhook) : null,
      attempts: r.attempts,
      message: parsed<AlertMessage>(r.message),
    }));
  }

  /** Claims the digests due: each recipient's waiting e-mails of one cadence, leased as claimDue does. */
  async claimDigests(limit: number): Promise<DueDigest[]> {
    const rows = await this.#claim('digest', limit);
    const digests = new Map<string, DueDigest>();
    for (const r of rows.sort((a, b) => a.at.getTime() - b.at.getTime())) {
      const cadence = r.digest ?? 'daily';
      // An outside address gets a digest per rule: each carries that rule's unsubscribe link.
      const key = `${r.organisation_id}\n${r.recipient}\n${cadence}\n${r.person_id ? '' : r.rule_id}`;
      let digest = digests.get(key);
      if (!digest) {
        digests.set(
          key,
          (digest = {
            organisationId: r.organisation_id,
            recipient: r.recipient,
            personId: r.person_id,
            ruleId: r.rule_id,
            cadence,
            ids: [],
            messages: [],
            since: r.at,
          }),
        );
      }
      digest.ids.push(String(r.id));
      digest.messages.push(parsed<AlertMessage>(r.message));
    }
    return [...digests.values()];
  }

  async delivered(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.guard(() =>
      this.db
        .updateTable('alert_deliveries')
        .set({ state: 'delivered', delivered_at: NOW, detail: null })
        .where('id', 'in', [...ids])
        .execute(),
    );
  }

  /** A failed attempt: tried again at `retryAt` (kept in its state: pending, or waiting digest), or given up (null). */
  async attemptFailed(ids: readonly string[], detail: string, retryAt: Date | null): Promise<void> {
    if (ids.length === 0) return;
    const text = detail.slice(0, 500);
    await this.guard(() =>
      this.db
        .updateTable('alert_deliveries')
        .set(retryAt ? { due_at: retryAt, detail: text } : { state: 'failed', detail: text })
        .where('id', 'in', [...ids])
        .execute(),
    );
  }

  /** Leases up to `limit` deliveries in `state` that are due (skipping those another pass holds), with their events. */
  #claim(state: 'pending' | 'digest', limit: number) {
    return this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('alert_deliveries')
          .select('id')
          .where('state', '=', state)
          .where('due_at', '<=', NOW)
          .orderBy('due_at')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        if (due.length === 0) return [];
        return trx
          .updateTable('alert_deliveries as d')
          .from('alert_events as e')
          .set({
            due_at: sql`clock_timestamp() + ${`${CLAIM_LEASE_MS} milliseconds`}::interval`,
            attempts: sql`d.attempts + 1`,
          })
          .whereRef('e.id', '=', 'd.event_id')
          .where(
            'd.id',
            'in',
            due.map((r) => r.id),
          )
          .returning([
            'd.id',
            'd.organisation_id',
            'd.channel',
            'd.recipient',
            'd.person_id',
            'd.webhook',
            'd.attempts',
            'd.digest',
            'e.message',
            'e.at',
            'e.rule_id',
          ])
          .execute();
      }),
    );
  }

  /** The organisation's history, newest first; `read` for the asker's own in-app entries. */
  async history(organisationId: string, personId: string, filter: HistoryFilter): Promise<AlertHistory> {
    const person = UUID.test(personId) ? personId : null;
    const rows = await this.guard(() => {
      let query = this.db
        .selectFrom('alert_deliveries as d')
        .innerJoin('alert_events as e', 'e.id', 'd.event_id')
        .select([
          'd.id',
          'e.at',
          'e.rule_id',
          'e.rule_name',
          'e.batch_ids',
          'e.summary',
          'd.channel',
          'd.recipient',
          'd.person_id',
          'd.state',
          'd.digest',
          'd.detail',
          'd.read_at',
          'd.attempts',
        ])
        // The finding's facts without its batches' data: the kind and figures, the first five batches' names.
        .select(
          sql<unknown>`case when e.message -> 'outage' is not null then jsonb_build_object('kind', 'outage', 'since', e.message #> '{outage,since}')
            else ((e.message -> 'finding') - 'batches' - 'limits' - 'lastAt') || jsonb_build_object('names', jsonb_path_query_array(e.message, '$.finding.batches[0 to 4].batch.batch_name')) end`.as(
            'what',
          ),
        )
        .where('d.organisation_id', '=', organisationId);
      if (filter.ruleId) query = query.where('e.rule_id', '=', filter.ruleId);
      if (filter.mine) query = query.where('d.channel', '=', 'in-app').where('d.person_id', '=', person);
      return query.orderBy('e.at', 'desc').orderBy('d.id', 'desc').limit(filter.limit).execute();
    });
    const entries = rows.map((r): AlertHistoryEntry => {
      const own = r.channel === 'in-app' && r.person_id === person;
      return {
        id: String(r.id),
        at: r.at.toISOString(),
        ruleId: r.rule_id ?? '',
        ruleName: r.rule_name,
        batchIds: parsed<string[]>(r.batch_ids),
        summary: r.summary,
        channel: r.channel as AlertChannel,
        recipient: r.recipient,
        delivered: r.state === 'delivered',
        detail: detailOf(r.state, r.digest, r.detail, r.attempts),
        state: r.state as AlertDeliveryState,
        digest: r.digest === 'hourly' || r.digest === 'daily' ? r.digest : null,
        attempts: r.attempts,
        error: r.state === 'delivered' ? null : r.detail,
        what: whatOf(parsed<Record<string, unknown> | null>(r.what)),
        read: own ? r.read_at !== null : null,
      };
    });
    return { entries, unread: await this.unread(organisationId, personId) };
  }

  /** The asker's unread in-app entries in the organisation (the bell's count). */
  async unread(organisationId: string, personId: string): Promise<number> {
    if (!UUID.test(personId)) return 0;
    const { count } = await this.guard(() =>
      this.db
        .selectFrom('alert_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('organisation_id', '=', organisationId)
        .where('channel', '=', 'in-app')
        .where('person_id', '=', personId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow(),
    );
    return Number(count);
  }

  /** Marks the asker's in-app entries read (these, or all of them); the unread left. */
  async markRead(organisationId: string, personId: string, ids?: readonly string[]): Promise<number> {
    if (!UUID.test(personId)) return 0;
    const wanted = ids?.filter((id) => /^\d{1,18}$/.test(id));
    if (ids && wanted!.length === 0) return this.unread(organisationId, personId);
    await this.guard(() => {
      let query = this.db
        .updateTable('alert_deliveries')
        .set({ read_at: NOW })
        .where('organisation_id', '=', organisationId)
        .where('channel', '=', 'in-app')
        .where('person_id', '=', personId)
        .where('read_at', 'is', null);
      if (wanted) query = query.where('id', 'in', wanted);
      return query.execute();
    });
    return this.unread(organisationId, personId);
  }

  /** The organisation's people who may receive alerts (not disabled), with their language and zone. */
  async addressees(organisationId: string): Promise<Addressee[]> {
    const rows = await this.guard(() =>
      this.db
        .selectFrom('memberships as m')
        .innerJoin('people as p', 'p.id', 'm.person_id')
        .select(['p.id', 'p.email', 'p.name', 'm.role', 'p.language', 'p.time_zone'])
        .where('m.organisation_id', '=', organisationId)
        .where('p.disabled_at', 'is', null)
        .execute(),
    );
    return rows.map((r) => ({
      id: r.id,
      email: r.email.toLowerCase(),
      name: r.name,
      role: r.role,
      language: r.language,
      timeZone: r.time_zone,
    }));
  }
}

async function insertEvent(trx: Transaction<SettingsTables>, organisationId: string, event: NewEvent): Promise<void> {
  const { id } = await trx
    .insertInto('alert_events')
    .values({
      id: event.message.id,
      organisation_id: organisationId,
      rule_id: event.ruleId,
      rule_name: event.ruleName,
      at: new Date(event.message.firedAt),
      batch_ids: JSON.stringify(event.batchIds),
      summary: event.summary.slice(0, 500),
      message: JSON.stringify(event.message),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (event.deliveries.length === 0) return;
  await trx
    .insertInto('alert_deliveries')
    .values(
      event.deliveries.map((d) => ({
        event_id: id,
        organisation_id: organisationId,
        channel: d.channel,
        recipient: d.recipient,
        person_id: d.channel === 'webhook' ? null : d.personId,
        webhook: d.channel === 'webhook' ? JSON.stringify(d.webhook) : null,
        state: stateOf(d),
        digest: d.channel === 'email' ? d.digest : null,
        due_at: d.channel === 'email' && d.dueAt ? d.dueAt : NOW,
        delivered_at: stateOf(d) === 'delivered' ? NOW : null,
        detail: d.channel === 'email' ? (d.sent?.detail ?? null) : null,
        created_at: NOW,
      })),
    )
    .execute();
}

function stateOf(d: NewDelivery): 'pending' | 'digest' | 'delivered' | 'failed' {
  // In-app entries are there as soon as the event is: delivered at once.
  if (d.channel === 'in-app') return 'delivered';
  if (d.channel === 'email' && d.sent) return d.sent.delivered ? 'delivered' : 'failed';
  if (d.channel === 'email' && d.digest) return 'digest';
  return 'pending';
}

/** The facts of a stored finding, checked field by field: anything else (an older event's shape) is null. */
function whatOf(w: Record<string, unknown> | null): AlertWhat | null {
  if (!w) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
  switch (w.kind) {
    case 'batches': {
      const total = count(w.total);
      const names = Array.isArray(w.names) ? w.names.filter((n): n is string => typeof n === 'string') : [];
      return total === null ? null : { kind: 'batches', total, names };
    }
    case 'control-signal': {
      const crop = text(w.crop),
        total = count(w.total);
      const metric = w.metric === 'germination' || w.metric === 'usable' || w.metric === 'cv' ? w.metric : null;
      const signal = w.signal === 'limits' || w.signal === 'run' ? w.signal : null;
      return crop === null || total === null || !metric || !signal
        ? null
        : { kind: 'control-signal', crop, metric, signal, total };
    }
    case 'silent': {
      const who = text(w.who),
        days = count(w.days);
      const by = w.by === 'crop' || w.by === 'scanner' ? w.by : null;
      return who === null || days === null || !by ? null : { kind: 'silent', by, who, days };
    }
    case 'outage': {
      const since = text(w.since);
      return since === null ? null : { kind: 'outage', since };
    }
    default:
      return null;
  }
}

function detailOf(state: string, digest: string | null, detail: string | null, attempts: number): string | null {
  if (state === 'digest')
    return detail
      ? `waits for the ${digest} digest; the last attempt failed: ${detail}`
      : `waits for the ${digest} digest`;
  if (state === 'pending')
    return detail ? `retrying after ${attempts} failed attempt${attempts === 1 ? '' : 's'}: ${detail}` : 'sending';
  return detail;
}
