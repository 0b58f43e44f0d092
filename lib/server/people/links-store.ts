import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Guard, SettingsDb, SettingsTables } from '../settings/database';

export type LinkKind = 'invite' | 'reset';

/** How long a link stays valid: an invite a week (people are away), a reset a day (it replaces a password). */
export const LINK_LIFETIME_MS: Record<LinkKind, number> = { invite: 7 * 24 * 3600 * 1000, reset: 24 * 3600 * 1000 };

/** What the page of a valid link shows: for whom, and for which organisation. */
export type OpenLink = { kind: LinkKind; email: string; name: string; organisation: { slug: string; name: string } };

/** A used link: whose it was, to sign them in. */
export type UsedLink = { kind: LinkKind; personId: string; organisationId: string };

/** The token in the link is 32 random bytes; only its SHA-256 is kept, so the table alone opens no link. */
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** One-time invite and reset links. */
export class LinksStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * A new link for the person (its token, shown once); any earlier link of the same kind for them in this
   * organisation stops working.
   */
  async issue(input: {
    personId: string;
    organisationId: string;
    kind: LinkKind;
    createdBy: string | null;
  }): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now() + LINK_LIFETIME_MS[input.kind]);
    await this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('one_time_links')
          .set({ used_at: sql<Date>`now()` })
          .where('person_id', '=', input.personId)
          .where('organisation_id', '=', input.organisationId)
          .where('kind', '=', input.kind)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .insertInto('one_time_links')
          .values({
            person_id: input.personId,
            organisation_id: input.organisationId,
            kind: input.kind,
            token_hash: tokenHash(token),
            expires_at: expiresAt,
            created_by: input.createdBy,
          })
          .execute();
      }),
    );
    return { token, expiresAt };
  }

  /** The link behind `token` while it is valid (not used, not expired, not the token of a person since removed), or null. */
  async peek(token: string): Promise<OpenLink | null> {
    if (!TOKEN.test(token)) return null;
    const row = await this.guard(() =>
      this.db
        .selectFrom('one_time_links as l')
        .innerJoin('people as p', 'p.id', 'l.person_id')
        .innerJoin('organisations as o', 'o.id', 'l.organisation_id')
        .innerJoin('memberships as m', (j) =>
          j.onRef('m.person_id', '=', 'l.person_id').onRef('m.organisation_id', '=', 'l.organisation_id'),
        )
        .select(['l.kind', 'p.email', 'p.name', 'o.slug', 'o.name as organisation_name'])
        .where('l.token_hash', '=', tokenHash(token))
        .where('l.used_at', 'is', null)
        .where('l.expires_at', '>', new Date(this.now()))
        .where('p.disabled_at', 'is', null)
        .executeTakeFirst(),
    );
    return row
      ? {
          kind: row.kind,
          email: row.email,
          name: row.name,
          organisation: { slug: row.slug, name: row.organisation_name },
        }
      : null;
  }

  /**
   * Uses the link, once: in `trx`, so that what the link allows (a password set) happens with it or not at
   * all. null when it is not valid (two uses at once: one gets it).
   */
  async use(trx: Transaction<SettingsTables>, token: string): Promise<UsedLink | null> {
    if (!TOKEN.test(token)) return null;
    const row = await trx
      .updateTable('one_time_links as l')
      .set({ used_at: sql<Date>`now()` })
      .where('l.token_hash', '=', tokenHash(token))
      .where('l.used_at', 'is', null)
      .where('l.expires_at', '>', new Date(this.now()))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('memberships as m')
            .innerJoin('people as p', 'p.id', 'm.person_id')
            .select('m.person_id')
            .whereRef('m.person_id', '=', 'l.person_id')
            .whereRef('m.organisation_id', '=', 'l.organisation_id')
            .where('p.disabled_at', 'is', null),
        ),
      )
      .returning(['l.kind', 'l.person_id', 'l.organisation_id'])
      .executeTakeFirst();
    return row ? { kind: row.kind, personId: row.person_id, organisationId: row.organisation_id } : null;
  }

  /**
   * The person's open invites count as accepted (used) once they signed in another way (single sign-on):
   * the link stops working and the People page stops calling the invite pending. How many there were.
   */
  async acceptInvites(personId: string): Promise<number> {
    const rows = await this.guard(() =>
      this.db
        .updateTable('one_time_links')
        .set({ used_at: sql<Date>`now()` })
        .where('person_id', '=', personId)
        .where('kind', '=', 'invite')
        .where('used_at', 'is', null)
        .returning('id')
        .execute(),
    );
    return rows.length;
  }

  /** Runs `work` in one transaction of the store (a link used together with what it sets). */
  transaction<R>(work: (trx: Transaction<SettingsTables>) => Promise<R>): Promise<R> {
    return this.guard(() => this.db.transaction().execute(work));
  }
}
