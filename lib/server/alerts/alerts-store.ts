import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Selectable, type Transaction } from 'kysely';
import {
  MAX_ALERT_RULES,
  type AlertRule,
  type AlertRuleChange,
  type AlertRuleCreate,
  type SubscriptionState,
  type WebhookFormat,
} from '../../contract/alerts';
import { AppError } from '../http/app-error';
import { logLine } from '../logging';
import type { CredentialsCipher } from '../org/credentials-crypto';
import { webhookTarget } from '../notify/webhook-target';
import { roleAtLeast, type Role } from '../people/roles';
import {
  NOW,
  UUID,
  type AlertRulesTable,
  type Guard,
  type SettingsDb,
  type SettingsTables,
} from '../settings/database';
import { changedDefinition, definitionOf, type RuleDefinition } from './rule-input';

/** Who asks: their own subscription shows, and what they may set depends on their role. */
export type Asker = { personId: string; role: Role };

/** A webhook as stored: its secret encrypted under the organisation (CredentialsCipher), never answered. */
export type StoredWebhook = { url: string; format: WebhookFormat; secret: string };

/** A rule as the watcher reads it: the definition, with the webhooks' secrets still encrypted. */
export type StoredRule = Omit<RuleDefinition, 'webhooks'> & {
  id: string;
  organisationId: string;
  webhooks: StoredWebhook[];
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
};

type RuleRow = Selectable<AlertRulesTable> & {
  creator_email: string | null;
  creator_name: string | null;
  own_state: string | null;
  own_email: string | null;
};

const notFound = () => new AppError('not_found', 'no alert rule with this id in your organisation', { field: 'id' });
const nameTaken = (name: string) =>
  new AppError('conflict', `a rule named "${name}" already exists in your organisation; choose another name`, {
    field: 'name',
  });

/**
 * The organisations' alert rules and each person's subscription to them (subscribed, or muted for themselves).
 * Editors and administrators write rules; an editor names people of the organisation as recipients, an
 * administrator any address. Webhook secrets are encrypted at rest and never leave the store but to the watcher.
 */
export class AlertsStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
    private readonly cipher: () => CredentialsCipher,
  ) {}

  async list(organisationId: string, asker: Asker): Promise<AlertRule[]> {
    const rows = await this.guard(() =>
      this.#select(this.db, organisationId, asker.personId)
        .orderBy(sql`lower(r.name)`)
        .execute(),
    );
    return rows.map(ruleOf);
  }

  async get(organisationId: string, asker: Asker, id: string): Promise<AlertRule> {
    if (!UUID.test(id)) throw notFound();
    const row = await this.guard(() =>
      this.#select(this.db, organisationId, asker.personId).where('r.id', '=', id).executeTakeFirst(),
    );
    if (!row) throw notFound();
    return ruleOf(row);
  }

  /** A new rule (201); 409 when its name is taken or the organisation keeps MAX_ALERT_RULES already. */
  async create(
    organisationId: string,
    asker: Asker,
    input: AlertRuleCreate,
    options: { allowPrivate: boolean },
  ): Promise<AlertRule> {
    const definition = definitionOf(input);
    definition.webhooks.forEach((hook, i) => {
      if (!hook.secret)
        throw new AppError('invalid_input', 'a webhook needs a secret (16 characters or more) to sign its requests', {
          field: `webhooks[${i}].secret`,
        });
    });
    await checkWebhookTargets(definition.webhooks, options.allowPrivate);
    const id = await this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        await lockRules(trx, organisationId);
        const { count } = await trx
          .selectFrom('alert_rules')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('organisation_id', '=', organisationId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_ALERT_RULES)
          throw new AppError(
            'conflict',
            `an organisation keeps at most ${MAX_ALERT_RULES} alert rules; delete one first`,
            { field: 'rules' },
          );
        await this.#nameFree(trx, organisationId, definition.name, null);
        await checkRecipients(trx, organisationId, asker, definition.recipients, []);
        const webhooks = definition.webhooks.map((hook) => ({
          url: hook.url,
          format: hook.format,
          secret: this.cipher().encrypt(hook.secret!, organisationId),
        }));
        const row = await trx
          .insertInto('alert_rules')
          .values({
            organisation_id: organisationId,
            ...columnsOf(definition),
            webhooks: JSON.stringify(webhooks),
            unsubscribe_key: randomBytes(32).toString('base64url'),
            created_at: NOW,
            created_by: asker.personId,
            updated_at: NOW,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      }),
    );
    return this.get(organisationId, asker, id);
  }

  /** Changes the rule; a webhook sent without a secret keeps the one the rule holds for the same URL. */
  async change(
    organisationId: string,
    asker: Asker,
    id: string,
    change: AlertRuleChange,
    options: { allowPrivate: boolean },
  ): Promise<{ before: AlertRule; after: AlertRule }> {
    const before = await this.get(organisationId, asker, id);
    const current = await this.rule(organisationId, id);
    if (!current) throw notFound();
    const definition = changedDefinition(
      { ...current, webhooks: current.webhooks.map(({ url, format }) => ({ url, format })) },
      change,
    );
    if (change.webhooks !== undefined) await checkWebhookTargets(definition.webhooks, options.allowPrivate);
    await this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        await lockRules(trx, organisationId);
        await this.#nameFree(trx, organisationId, definition.name, id);
        await checkRecipients(trx, organisationId, asker, definition.recipients, current.recipients);
        const held = new Map(current.webhooks.map((hook) => [hook.url, hook.secret]));
        const webhooks = definition.webhooks.map((hook, i) => {
          const secret = hook.secret ? this.cipher().encrypt(hook.secret, organisationId) : held.get(hook.url);
          if (!secret)
            throw new AppError(
              'invalid_input',
              'a new webhook needs a secret (16 characters or more) to sign its requests',
              { field: `webhooks[${i}].secret` },
            );
          return { url: hook.url, format: hook.format, secret };
        });
        const { numUpdatedRows } = await trx
          .updateTable('alert_rules')
          .set({ ...columnsOf(definition), webhooks: JSON.stringify(webhooks), updated_at: NOW })
          .where('organisation_id', '=', organisationId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(numUpdatedRows) === 0) throw notFound();
      }),
    );
    return { before, after: await this.get(organisationId, asker, id) };
  }

  /** Deletes the rule (what it sent stays in the history); the rule as it was, for the log. */
  async delete(organisationId: string, asker: Asker, id: string): Promise<AlertRule> {
    const before = await this.get(organisationId, asker, id);
    await this.guard(() =>
      this.db.deleteFrom('alert_rules').where('organisation_id', '=', organisationId).where('id', '=', id).execute(),
    );
    return before;
  }

  /** The asker's own choice for a rule: subscribed, muted, or neither (their being a recipient decides). */
  async subscribe(organisationId: string, asker: Asker, id: string, state: SubscriptionState): Promise<AlertRule> {
    await this.get(organisationId, asker, id);
    await this.guard<unknown>(() =>
      state === 'none'
        ? this.db
            .deleteFrom('alert_subscriptions')
            .where('rule_id', '=', id)
            .where('person_id', '=', asker.personId)
            .execute()
        : this.db
            .insertInto('alert_subscriptions')
            .values({ rule_id: id, person_id: asker.personId, state })
            .onConflict((oc) => oc.columns(['rule_id', 'person_id']).doUpdateSet({ state }))
            .execute(),
    );
    return this.get(organisationId, asker, id);
  }

  /** One rule as the watcher reads it, or null. */
  async rule(organisationId: string, id: string): Promise<StoredRule | null> {
    if (!UUID.test(id)) return null;
    const row = await this.guard(() =>
      this.db
        .selectFrom('alert_rules')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst(),
    );
    return row ? storedOf(row) : null;
  }

  /** The rules the watcher checks for an organisation: every one not paused. */
  async activeRules(organisationId: string): Promise<StoredRule[]> {
    const rows = await this.guard(() =>
      this.db
        .selectFrom('alert_rules')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .where('paused', '=', false)
        .orderBy('created_at')
        .execute(),
    );
    return rows.map(storedOf);
  }

  /** The organisations with at least one rule not paused: the ones the watcher polls. */
  async watchedOrganisations(): Promise<string[]> {
    const rows = await this.guard(() =>
      this.db.selectFrom('alert_rules').select('organisation_id').where('paused', '=', false).distinct().execute(),
    );
    return rows.map((r) => r.organisation_id);
  }

  /** People's own choices for a rule, by person. */
  async subscriptions(ruleId: string): Promise<Map<string, 'subscribed' | 'muted'>> {
    const rows = await this.guard(() =>
      this.db.selectFrom('alert_subscriptions').select(['person_id', 'state']).where('rule_id', '=', ruleId).execute(),
    );
    return new Map(rows.map((r) => [r.person_id, r.state]));
  }

  /**
   * Re-encrypts every webhook secret kept under an older CREDENTIALS_KEY with the current one (at start-up, as
   * the organisations' client secrets are), so that dropping CREDENTIALS_KEY_PREVIOUS loses no webhook; the
   * number re-encrypted. A rule changed meanwhile is left for the next start.
   */
  async reencryptStale(): Promise<number> {
    const cipher = this.cipher();
    const rows = await this.guard(() =>
      this.db.selectFrom('alert_rules').select(['id', 'organisation_id', 'webhooks']).execute(),
    );
    let count = 0;
    for (const row of rows) {
      const hooks = parsed<StoredWebhook[]>(row.webhooks);
      const stale = hooks.filter((hook) => cipher.isStale(hook.secret));
      if (stale.length === 0) continue;
      let fresh: StoredWebhook[];
      try {
        fresh = hooks.map((hook) =>
          cipher.isStale(hook.secret)
            ? { ...hook, secret: cipher.encrypt(cipher.decrypt(hook.secret, row.organisation_id), row.organisation_id) }
            : hook,
        );
      } catch {
        logLine(
          'warn',
          'credentials: a webhook secret is under a key neither CREDENTIALS_KEY nor CREDENTIALS_KEY_PREVIOUS holds',
          { organisation_id: row.organisation_id, rule_id: row.id },
        );
        continue;
      }
      const { numUpdatedRows } = await this.guard(() =>
        this.db
          .updateTable('alert_rules')
          .set({ webhooks: JSON.stringify(fresh) })
          .where('id', '=', row.id)
          .where(sql<boolean>`webhooks = ${JSON.stringify(hooks)}::jsonb`)
          .executeTakeFirst(),
      );
      if (numUpdatedRows > 0n) count += stale.length;
    }
    return count;
  }

  /** The decrypted secret of a stored webhook (for the request's signature only). */
  webhookSecret(organisationId: string, hook: StoredWebhook): string {
    return this.cipher().decrypt(hook.secret, organisationId);
  }

  /** The token of an outside address's unsubscribe link: the rule, the address, and a signature under the rule's key. */
  unsubscribeToken(rule: { id: string; unsubscribeKey: string }, email: string): string {
    const address = Buffer.from(email, 'utf8').toString('base64url');
    return `${rule.id}.${address}.${tokenMac(rule.unsubscribeKey, rule.id, email)}`;
  }

  /** The rule and address an unsubscribe token names, when its signature holds; else null. */
  async unsubscribeTarget(
    token: string,
  ): Promise<{ organisationId: string; ruleId: string; ruleName: string; email: string; subscribed: boolean } | null> {
    const [ruleId, address, mac, ...rest] = token.split('.');
    if (!ruleId || !address || !mac || rest.length > 0 || !UUID.test(ruleId)) return null;
    const row = await this.guard(() =>
      this.db
        .selectFrom('alert_rules')
        .select(['organisation_id', 'name', 'unsubscribe_key', 'recipients'])
        .where('id', '=', ruleId)
        .executeTakeFirst(),
    );
    if (!row) return null;
    const email = Buffer.from(address, 'base64url').toString('utf8');
    const expected = Buffer.from(tokenMac(row.unsubscribe_key, ruleId, email));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return {
      organisationId: row.organisation_id,
      ruleId,
      ruleName: row.name,
      email,
      subscribed: (row.recipients as string[]).includes(email),
    };
  }

  /** Takes an outside address off a rule's recipients (its unsubscribe link); the recipients before, for the log. */
  async removeRecipient(organisationId: string, ruleId: string, email: string): Promise<boolean> {
    return this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        await lockRules(trx, organisationId);
        const row = await trx
          .selectFrom('alert_rules')
          .select('recipients')
          .where('id', '=', ruleId)
          .where('organisation_id', '=', organisationId)
          .executeTakeFirst();
        if (!row) return false;
        const recipients = row.recipients as string[];
        if (!recipients.includes(email)) return false;
        await trx
          .updateTable('alert_rules')
          .set({ recipients: JSON.stringify(recipients.filter((r) => r !== email)), updated_at: NOW })
          .where('id', '=', ruleId)
          .execute();
        return true;
      }),
    );
  }

  #select(db: SettingsDb | Transaction<SettingsTables>, organisationId: string, personId: string) {
    return db
      .selectFrom('alert_rules as r')
      .leftJoin('people as c', 'c.id', 'r.created_by')
      .leftJoin('alert_subscriptions as s', (join) =>
        join.onRef('s.rule_id', '=', 'r.id').on('s.person_id', '=', UUID.test(personId) ? personId : null),
      )
      .selectAll('r')
      .select(['c.email as creator_email', 'c.name as creator_name', 's.state as own_state'])
      .select(
        sql<
          string | null
        >`(select lower(p.email) from people p where p.id = ${UUID.test(personId) ? personId : null})`.as('own_email'),
      )
      .where('r.organisation_id', '=', organisationId);
  }

  async #nameFree(trx: Transaction<SettingsTables>, organisationId: string, name: string, except: string | null) {
    let query = trx
      .selectFrom('alert_rules')
      .select('id')
      .where('organisation_id', '=', organisationId)
      .where(sql<boolean>`lower(name) = lower(${name})`);
    if (except) query = query.where('id', '<>', except);
    if (await query.executeTakeFirst()) throw nameTaken(name);
  }
}

/** Two writers of one organisation's rules take turns (the count and the name checks hold for the insert). */
async function lockRules(trx: Transaction<SettingsTables>, organisationId: string) {
  await sql`select pg_advisory_xact_lock(hashtext(${`alert-rules:${organisationId}`}))`.execute(trx);
}

/**
 * Recipients an editor may name: people of the organisation. An administrator may add any address; an editor
 * keeps the outside addresses the rule had (an administrator added them) but adds none.
 */
async function checkRecipients(
  trx: Transaction<SettingsTables>,
  organisationId: string,
  asker: Asker,
  recipients: readonly string[],
  had: readonly string[],
) {
  if (roleAtLeast(asker.role, 'admin')) return;
  const members = await trx
    .selectFrom('memberships as m')
    .innerJoin('people as p', 'p.id', 'm.person_id')
    .select(sql<string>`lower(p.email)`.as('email'))
    .where('m.organisation_id', '=', organisationId)
    .execute();
  const known = new Set([...members.map((m) => m.email), ...had]);
  const outside = recipients.findIndex((r) => !known.has(r));
  if (outside >= 0) {
    throw new AppError(
      'forbidden_role',
      `${recipients[outside]} is not a person of this organisation; only an administrator may add an outside address`,
      {
        field: `recipients[${outside}]`,
      },
    );
  }
}

/** Each webhook's URL by the SSRF rules (lib/server/notify/webhook-target.ts), 422 naming the first refused. */
async function checkWebhookTargets(hooks: readonly { url: string }[], allowPrivate: boolean) {
  for (const [i, hook] of hooks.entries()) {
    const target = await webhookTarget(hook.url, allowPrivate);
    if (!target.ok) throw new AppError('invalid_input', target.problem, { field: `webhooks[${i}].url` });
  }
}

const tokenMac = (key: string, ruleId: string, email: string) =>
  createHmac('sha256', key).update(`${ruleId}\n${email}`).digest('base64url');

function columnsOf(d: RuleDefinition) {
  return {
    name: d.name,
    kind: d.when,
    target: d.target,
    signal: d.signal,
    crop: d.crop,
    search: d.search,
    silent_days: d.silentDays,
    silent_by: d.silentBy,
    recipients: JSON.stringify(d.recipients),
    delivery: d.delivery,
    digest_hour: d.digestHour,
    paused: d.paused,
  };
}

const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

function storedOf(row: Selectable<AlertRulesTable>): StoredRule & { unsubscribeKey: string } {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    name: row.name,
    when: row.kind as StoredRule['when'],
    target: row.target as StoredRule['target'],
    signal: row.signal as StoredRule['signal'],
    crop: row.crop,
    search: row.search,
    silentDays: row.silent_days,
    silentBy: row.silent_by as StoredRule['silentBy'],
    recipients: parsed<string[]>(row.recipients),
    webhooks: parsed<StoredWebhook[]>(row.webhooks),
    delivery: row.delivery as StoredRule['delivery'],
    digestHour: row.digest_hour,
    paused: row.paused,
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
    unsubscribeKey: row.unsubscribe_key,
  };
}

function ruleOf(row: RuleRow): AlertRule {
  const rule = storedOf(row);
  const subscription: SubscriptionState =
    row.own_state === 'subscribed' || row.own_state === 'muted' ? row.own_state : 'none';
  const recipient = row.own_email !== null && rule.recipients.includes(row.own_email);
  return {
    id: rule.id,
    name: rule.name,
    when: rule.when,
    target: rule.target,
    signal: rule.signal,
    crop: rule.crop,
    search: rule.search,
    silentDays: rule.silentDays,
    silentBy: rule.silentBy,
    recipients: rule.recipients,
    webhooks: rule.webhooks.map((hook) => ({ url: hook.url, format: hook.format, secretSet: Boolean(hook.secret) })),
    delivery: rule.delivery,
    digestHour: rule.digestHour,
    paused: rule.paused,
    createdAt: rule.createdAt.toISOString(),
    createdBy: row.creator_email ? { email: row.creator_email, name: row.creator_name ?? '' } : null,
    updatedAt: rule.updatedAt.toISOString(),
    subscription,
    receiving: subscription !== 'muted' && (subscription === 'subscribed' || recipient),
  };
}
