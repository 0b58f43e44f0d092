import 'server-only';
import { sql } from 'kysely';
import type { Guard, SettingsDb } from '../settings/database';

/** What the activity log records, by name (README, "Activity log"). */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_out',
  'targets_changed',
  'targets_restored',
  'view_created',
  'view_renamed',
  'view_shared',
  'view_unshared',
  'view_deleted',
  'view_made_default',
  'report_scheduled',
  'report_unscheduled',
  'person_invited',
  'person_joined',
  'role_changed',
  'person_disabled',
  'person_enabled',
  'person_removed',
  'sessions_revoked',
  'connection_changed',
  'password_reset_issued',
  'password_set',
  'alert_created',
  'alert_changed',
  'alert_deleted',
  'alert_unsubscribed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditRecord = {
  organisationId: string | null;
  actor: { id: string | null; email: string; name: string };
  action: AuditAction;
  subject: string;
  before?: unknown;
  after?: unknown;
  address: string | null;
  method: string | null;
};

export type AuditEntry = {
  id: string;
  at: string;
  actor: { email: string; name: string };
  action: string;
  subject: string;
  before: unknown;
  after: unknown;
  address: string | null;
  method: string | null;
};

export type AuditFilter = { from?: Date; to?: Date; action?: AuditAction; actor?: string; limit: number };

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** Who did what, when, from where: appended to, never changed. */
export class AuditStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
  ) {}

  async record(entry: AuditRecord): Promise<void> {
    await this.guard(() =>
      this.db
        .insertInto('audit_log')
        .values({
          organisation_id: entry.organisationId,
          actor_id: entry.actor.id,
          actor_email: entry.actor.email,
          actor_name: entry.actor.name,
          action: entry.action,
          subject: entry.subject.slice(0, 500),
          before: json(entry.before),
          after: json(entry.after),
          address: entry.address,
          method: entry.method,
        })
        .execute(),
    );
  }

  /**
   * The organisation's entries, newest first: what was done in it, and the sign-ins and sign-outs of its
   * current members (those belong to no organisation).
   */
  async list(organisationId: string, filter: AuditFilter): Promise<AuditEntry[]> {
    const rows = await this.guard(() => {
      let query = this.db
        .selectFrom('audit_log as a')
        .select([
          'a.id',
          'a.at',
          'a.actor_email',
          'a.actor_name',
          'a.action',
          'a.subject',
          'a.before',
          'a.after',
          'a.address',
          'a.method',
        ])
        .where((eb) =>
          eb.or([
            eb('a.organisation_id', '=', organisationId),
            eb.and([
              eb('a.organisation_id', 'is', null),
              eb.exists(
                eb
                  .selectFrom('memberships as m')
                  .select('m.person_id')
                  .whereRef('m.person_id', '=', 'a.actor_id')
                  .where('m.organisation_id', '=', organisationId),
              ),
            ]),
          ]),
        );
      if (filter.from) query = query.where('a.at', '>=', filter.from);
      if (filter.to) query = query.where('a.at', '<', filter.to);
      if (filter.action) query = query.where('a.action', '=', filter.action);
      if (filter.actor) query = query.where(sql<boolean>`lower(a.actor_email) = lower(${filter.actor})`);
      return query.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(filter.limit).execute();
    });
    return rows.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      actor: { email: r.actor_email, name: r.actor_name },
      action: r.action,
      subject: r.subject,
      before: r.before ?? null,
      after: r.after ?? null,
      address: r.address,
      method: r.method,
    }));
  }
}
