import 'server-only';
import { sql, type Transaction } from 'kysely';
import { AppError } from '../http/app-error';
import type { Organisation } from '../org/organisations-store';
import { UUID, type Guard, type Role, type SettingsDb, type SettingsTables } from '../settings/database';

export type { Role };

export type Person = {
  id: string;
  email: string;
  name: string;
  disabled: boolean;
  language: string | null;
  timeZone: string | null;
  defaultOrganisationId: string | null;
};

export type Membership = { organisation: Organisation; role: Role };

/** A member as the organisation's administrators see them. */
export type Member = {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  lastSeenAt: string | null;
  invitePending: boolean;
};

const notFound = () => new AppError('not_found', 'no such person in your organisation', { field: 'id' });
const PERSON = ['id', 'email', 'name', 'disabled_at', 'language', 'time_zone', 'default_organisation_id'] as const;

type PersonRow = {
  id: string;
  email: string;
  name: string;
  disabled_at: Date | null;
  language: string | null;
  time_zone: string | null;
  default_organisation_id: string | null;
};

export const personOf = (row: PersonRow): Person => ({
  id: row.id,
  email: row.email,
  name: row.name,
  disabled: row.disabled_at !== null,
  language: row.language,
  timeZone: row.time_zone,
  defaultOrganisationId: row.default_organisation_id,
});

/** People, their memberships and roles. Every change that could leave an organisation without an administrator is refused. */
export class PeopleStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
  ) {}

  async byId(id: string): Promise<Person | null> {
    if (!UUID.test(id)) return null;
    const row = await this.guard(() =>
      this.db.selectFrom('people').select(PERSON).where('id', '=', id).executeTakeFirst(),
    );
    return row ? personOf(row) : null;
  }

  /** The person with this e-mail address (whatever its case), with their password hash for the sign-in. */
  async byEmail(email: string): Promise<(Person & { passwordHash: string | null }) | null> {
    const row = await this.guard(() =>
      this.db
        .selectFrom('people')
        .select([...PERSON, 'password_hash'])
        .where(sql<boolean>`lower(email) = lower(${email})`)
        .executeTakeFirst(),
    );
    return row ? { ...personOf(row), passwordHash: row.password_hash } : null;
  }

  async count(): Promise<number> {
    const { n } = await this.guard(() =>
      this.db
        .selectFrom('people')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    );
    return Number(n);
  }

  async create(input: { email: string; name?: string; passwordHash?: string | null }): Promise<Person> {
    try {
      const row = await this.guard(() =>
        this.db
          .insertInto('people')
          .values({
            email: input.email.trim(),
            name: input.name?.trim() ?? '',
            password_hash: input.passwordHash ?? null,
          })
          .returning(PERSON)
          .executeTakeFirstOrThrow(),
      );
      return personOf(row);
    } catch (error) {
      if ((error as { code?: unknown }).code === '23505')
        throw new AppError('conflict', 'someone with this e-mail address exists already', { field: 'email' });
      throw error;
    }
  }

  /** The person's organisations with their role in each, by name. */
  async memberships(personId: string): Promise<Membership[]> {
    const rows = await this.guard(() =>
      this.db
        .selectFrom('memberships as m')
        .innerJoin('organisations as o', 'o.id', 'm.organisation_id')
        .select(['o.id', 'o.slug', 'o.name', 'o.client_id', 'm.role'])
        .where('m.person_id', '=', personId)
        .orderBy(sql`lower(o.name)`)
        .execute(),
    );
    return rows.map((r) => ({
      organisation: { id: r.id, slug: r.slug, name: r.name, clientId: r.client_id },
      role: r.role,
    }));
  }

  async roleIn(organisationId: string, personId: string): Promise<Role | null> {
    if (!UUID.test(personId)) return null;
    const row = await this.guard(() =>
      this.db
        .selectFrom('memberships')
        .select('role')
        .where('organisation_id', '=', organisationId)
        .where('person_id', '=', personId)
        .executeTakeFirst(),
    );
    return row?.role ?? null;
  }

  /** Adds the person to the organisation with `role`, or gives them that role there. */
  async setMembership(organisationId: string, personId: string, role: Role): Promise<void> {
    await this.guard(() =>
      this.db
        .insertInto('memberships')
        .values({ organisation_id: organisationId, person_id: personId, role })
        .onConflict((oc) => oc.columns(['person_id', 'organisation_id']).doUpdateSet({ role }))
        .execute(),
    );
  }

  /** The organisation's people for its administrators, by name then e-mail. */
  async members(organisationId: string): Promise<Member[]> {
    const rows = await this.guard(() =>
      this.db
        .selectFrom('memberships as m')
        .innerJoin('people as p', 'p.id', 'm.person_id')
        .select([
          'p.id',
          'p.email',
          'p.name',
          'p.disabled_at',
          'p.password_hash',
          'm.role',
          sql<Date | null>`(select max(s.last_seen_at) from sessions s where s.person_id = p.id)`.as('last_seen_at'),
          sql<boolean>`exists (select 1 from one_time_links l where l.person_id = p.id and l.organisation_id = m.organisation_id and l.kind = 'invite' and l.used_at is null and l.expires_at > now())`.as(
            'invite_open',
          ),
        ])
        .where('m.organisation_id', '=', organisationId)
        .orderBy(sql`lower(p.name)`)
        .orderBy(sql`lower(p.email)`)
        .execute(),
    );
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      role: r.role,
      disabled: r.disabled_at !== null,
      lastSeenAt: r.last_seen_at ? new Date(r.last_seen_at).toISOString() : null,
      // Invited and has not chosen a password yet (single sign-on people never need one).
      invitePending: r.password_hash === null && r.invite_open,
    }));
  }

  /** A member of this organisation, or a 404 (another organisation's people do not exist here). */
  async member(organisationId: string, personId: string): Promise<Member> {
    if (!UUID.test(personId)) throw notFound();
    const found = (await this.members(organisationId)).find((m) => m.id === personId);
    if (!found) throw notFound();
    return found;
  }

  /** Changes a member's role; refused when it would leave the organisation without an administrator. */
  async changeRole(organisationId: string, personId: string, role: Role): Promise<void> {
    await this.#inTurn(organisationId, async (trx) => {
      await keepsAnAdmin(trx, organisationId, (a) => (a.person_id === personId ? role === 'admin' : true), 'role');
      await trx
        .updateTable('memberships')
        .set({ role })
        .where('organisation_id', '=', organisationId)
        .where('person_id', '=', personId)
        .execute();
    });
  }

  /**
   * Disables (or enables) the person everywhere: every session of theirs is refused from the next request on,
   * on every instance. Refused when it would leave one of their organisations without an administrator.
   */
  async setDisabled(personId: string, disabled: boolean, organisationId: string): Promise<void> {
    await this.#inTurn(organisationId, async (trx) => {
      if (disabled) {
        const theirs = await trx
          .selectFrom('memberships')
          .select('organisation_id')
          .where('person_id', '=', personId)
          .where('role', '=', 'admin')
          .execute();
        for (const { organisation_id } of theirs)
          await keepsAnAdmin(trx, organisation_id, (a) => a.person_id !== personId, 'disabled');
      }
      await trx
        .updateTable('people')
        .set({ disabled_at: disabled ? sql<Date>`coalesce(disabled_at, now())` : null })
        .where('id', '=', personId)
        .execute();
      if (disabled)
        await trx
          .updateTable('sessions')
          .set({ revoked_at: sql<Date>`now()` })
          .where('person_id', '=', personId)
          .where('revoked_at', 'is', null)
          .execute();
    });
  }

  /**
   * Takes the person out of the organisation: their own views there go, what they shared stays as the
   * organisation's. A person left in no organisation is deleted (their sessions with them).
   */
  async removeMember(organisationId: string, personId: string): Promise<{ deleted: boolean }> {
    return this.#inTurn(organisationId, async (trx) => {
      await keepsAnAdmin(trx, organisationId, (a) => a.person_id !== personId, 'id');
      await trx
        .deleteFrom('saved_views')
        .where('organisation_id', '=', organisationId)
        .where('owner_id', '=', personId)
        .where('shared', '=', false)
        .execute();
      await trx
        .updateTable('saved_views')
        .set({ owner_id: null })
        .where('organisation_id', '=', organisationId)
        .where('owner_id', '=', personId)
        .execute();
      await trx
        .deleteFrom('one_time_links')
        .where('organisation_id', '=', organisationId)
        .where('person_id', '=', personId)
        .execute();
      await trx
        .deleteFrom('memberships')
        .where('organisation_id', '=', organisationId)
        .where('person_id', '=', personId)
        .execute();
      const left = await trx
        .selectFrom('memberships')
        .select('organisation_id')
        .where('person_id', '=', personId)
        .executeTakeFirst();
      if (left) return { deleted: false };
      await trx.deleteFrom('saved_views').where('owner_id', '=', personId).where('shared', '=', false).execute();
      await trx.deleteFrom('people').where('id', '=', personId).execute();
      return { deleted: true };
    });
  }

  async setPassword(personId: string, passwordHash: string, trx?: Transaction<SettingsTables>): Promise<void> {
    const run = (db: SettingsDb | Transaction<SettingsTables>) =>
      db.updateTable('people').set({ password_hash: passwordHash }).where('id', '=', personId).execute();
    await (trx ? run(trx) : this.guard(() => run(this.db)));
  }

  /** The person's own settings (name, language, time zone, default organisation); undefined leaves one as it is. */
  async updateProfile(
    personId: string,
    change: {
      name?: string;
      language?: string | null;
      timeZone?: string | null;
      defaultOrganisationId?: string | null;
    },
  ): Promise<Person> {
    const set = {
      ...(change.name !== undefined && { name: change.name.trim() }),
      ...(change.language !== undefined && { language: change.language }),
      ...(change.timeZone !== undefined && { time_zone: change.timeZone }),
      ...(change.defaultOrganisationId !== undefined && { default_organisation_id: change.defaultOrganisationId }),
    };
    const row = await this.guard(() =>
      Object.keys(set).length === 0
        ? this.db.selectFrom('people').select(PERSON).where('id', '=', personId).executeTakeFirstOrThrow()
        : this.db.updateTable('people').set(set).where('id', '=', personId).returning(PERSON).executeTakeFirstOrThrow(),
    );
    return personOf(row);
  }

  /** `work` in a transaction holding the organisation's people lock: two administrators' changes take turns. */
  #inTurn<R>(organisationId: string, work: (trx: Transaction<SettingsTables>) => Promise<R>): Promise<R> {
    return this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${PEOPLE_LOCK}, hashtext(${organisationId}))`.execute(trx);
        return work(trx);
      }),
    );
  }
}

/** The first key of the advisory locks that order changes to one organisation's people. */
const PEOPLE_LOCK = 1_447_382;

/**
 * Refuses (409) a change after which the organisation would have no enabled administrator: `stays` says
 * whether each current administrator would still be one.
 */
async function keepsAnAdmin(
  trx: Transaction<SettingsTables>,
  organisationId: string,
  stays: (admin: { person_id: string }) => boolean,
  field: string,
) {
  const admins = await trx
    .selectFrom('memberships as m')
    .innerJoin('people as p', 'p.id', 'm.person_id')
    .select(['m.person_id'])
    .where('m.organisation_id', '=', organisationId)
    .where('m.role', '=', 'admin')
    .where('p.disabled_at', 'is', null)
    .execute();
  if (admins.length > 0 && !admins.some(stays)) {
    const org = await trx
      .selectFrom('organisations')
      .select('name')
      .where('id', '=', organisationId)
      .executeTakeFirst();
    throw new AppError(
      'conflict',
      `this would leave ${org?.name ?? 'the organisation'} without an administrator; make someone else an administrator first`,
      { field },
    );
  }
}
