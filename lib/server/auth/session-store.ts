import 'server-only';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Guard, Role, SettingsDb } from '../settings/database';

export type SessionMethod = 'password' | 'oidc';

/** A session row with its person and their memberships: what every authenticated request needs, read in one query. */
export type LoadedSession = {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  revoked: boolean;
  method: SessionMethod;
  person: {
    id: string;
    email: string;
    name: string;
    disabled: boolean;
    language: string | null;
    timeZone: string | null;
    defaultOrganisationId: string | null;
  };
  memberships: { id: string; slug: string; name: string; clientId: string; role: Role }[];
};

/** One of a person's sessions as their account page lists it; `handle` names it without being its id. */
export type SessionEntry = {
  handle: string;
  id: string;
  userAgent: string;
  address: string;
  createdAt: string;
  lastSeenAt: string;
  method: SessionMethod;
};

/** Names a session in pages and URLs: the session id itself only ever travels sealed in its own cookie. */
export const sessionHandle = (sid: string) =>
  createHash('sha256').update(`tsb-session-handle:${sid}`).digest('base64url').slice(0, 22);

/** The server's record of sessions: the one truth every instance sharing the database reads. */
export class SessionStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
  ) {}

  async create(row: {
    id: string;
    personId: string;
    createdAt: number;
    expiresAt: number;
    method: SessionMethod;
    userAgent: string;
    address: string;
  }): Promise<void> {
    await this.guard(
      () =>
        this.db
          .insertInto('sessions')
          .values({
            id: row.id,
            person_id: row.personId,
            created_at: new Date(row.createdAt),
            last_seen_at: new Date(row.createdAt),
            expires_at: new Date(row.expiresAt),
            method: row.method,
            user_agent: row.userAgent.slice(0, 400),
            address: row.address.slice(0, 100),
          })
          .execute(),
      'session',
    );
  }

  /** The session, its person and their organisations with their role, by name; null for an id nobody knows. */
  async load(sid: string): Promise<LoadedSession | null> {
    const row = await this.guard(
      () =>
        this.db
          .selectFrom('sessions as s')
          .innerJoin('people as p', 'p.id', 's.person_id')
          .select([
            's.id',
            's.created_at',
            's.last_seen_at',
            's.expires_at',
            's.revoked_at',
            's.method',
            's.person_id',
            'p.email',
            'p.name',
            'p.disabled_at',
            'p.language',
            'p.time_zone',
            'p.default_organisation_id',
            sql<LoadedSession['memberships'] | string>`coalesce((
              select json_agg(json_build_object('id', o.id, 'slug', o.slug, 'name', o.name, 'clientId', o.client_id, 'role', m.role) order by lower(o.name), o.slug)
              from memberships m join organisations o on o.id = m.organisation_id where m.person_id = p.id), '[]')`.as(
              'memberships',
            ),
          ])
          .where('s.id', '=', sid)
          .executeTakeFirst(),
      'session',
    );
    if (!row) return null;
    return {
      id: row.id,
      createdAt: row.created_at.getTime(),
      lastSeenAt: row.last_seen_at.getTime(),
      expiresAt: row.expires_at.getTime(),
      revoked: row.revoked_at !== null,
      method: row.method,
      person: {
        id: row.person_id,
        email: row.email,
        name: row.name,
        disabled: row.disabled_at !== null,
        language: row.language,
        timeZone: row.time_zone,
        defaultOrganisationId: row.default_organisation_id,
      },
      memberships: typeof row.memberships === 'string' ? JSON.parse(row.memberships) : row.memberships,
    };
  }

  async touch(sid: string, at: number): Promise<void> {
    await this.guard(
      () =>
        this.db
          .updateTable('sessions')
          .set({ last_seen_at: new Date(at) })
          .where('id', '=', sid)
          .execute(),
      'session',
    );
  }

  async revoke(sid: string): Promise<void> {
    await this.guard(
      () =>
        this.db
          .updateTable('sessions')
          .set({ revoked_at: sql<Date>`now()` })
          .where('id', '=', sid)
          .where('revoked_at', 'is', null)
          .execute(),
      'session',
    );
  }

  /** Revokes every live session of the person but `except`; the number revoked. */
  async revokeAllOf(personId: string, except?: string): Promise<number> {
    const result = await this.guard(() => {
      let query = this.db
        .updateTable('sessions')
        .set({ revoked_at: sql<Date>`now()` })
        .where('person_id', '=', personId)
        .where('revoked_at', 'is', null);
      if (except) query = query.where('id', '!=', except);
      return query.executeTakeFirst();
    }, 'session');
    return Number(result.numUpdatedRows);
  }

  /** The person's sessions still live at `now`, the most recently seen first. */
  async liveOf(personId: string, now: number): Promise<SessionEntry[]> {
    const rows = await this.guard(
      () =>
        this.db
          .selectFrom('sessions')
          .select(['id', 'user_agent', 'address', 'created_at', 'last_seen_at', 'method'])
          .where('person_id', '=', personId)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', new Date(now))
          .orderBy('last_seen_at', 'desc')
          .execute(),
      'session',
    );
    return rows.map((r) => ({
      handle: sessionHandle(r.id),
      id: r.id,
      userAgent: r.user_agent,
      address: r.address,
      createdAt: r.created_at.toISOString(),
      lastSeenAt: r.last_seen_at.toISOString(),
      method: r.method,
    }));
  }

  /** Sessions live at `now` across every person: not signed out, not expired, seen within `idleS` seconds. */
  async countLive(now: number, idleS: number): Promise<number> {
    const { n } = await this.guard(
      () =>
        this.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', new Date(now))
          .where('last_seen_at', '>', new Date(now - idleS * 1000))
          .executeTakeFirstOrThrow(),
      'session',
    );
    return Number(n);
  }

  /** Drops what can never be used again: sessions over a day past their end (a signed-out one stays refused by its absence too). */
  async prune(now: number): Promise<number> {
    const result = await this.guard(
      () =>
        this.db
          .deleteFrom('sessions')
          .where('expires_at', '<', new Date(now - 24 * 3600 * 1000))
          .executeTakeFirst(),
      'session',
    );
    return Number(result.numDeletedRows);
  }
}
