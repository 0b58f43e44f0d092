import 'server-only';
import { sql, type Transaction } from 'kysely';
import { MAX_VIEWS, type SavedView } from '../../contract/views';
import { ViewChangeSchema, ViewCreateSchema } from '../../contract/schemas';
import { AppError, invalidInput } from '../http/app-error';
import { requireRole, type Role } from '../people/roles';
import { NOW, STATEMENT_TIME, UUID, type Guard, type SettingsDb, type SettingsTables } from './database';

/** The first key of the advisory locks that order one organisation's writes to its views (the second: its ID's hash). */
const VIEWS_LOCK = 1_447_381;

/** Who asks: the views they see are the organisation's shared ones and their own. */
export type Viewer = { personId: string; role: Role };

type Row = {
  id: string;
  name: string;
  query: string;
  is_default: boolean;
  shared: boolean;
  owner_id: string | null;
  owner_email: string | null;
  owner_name: string | null;
  created_at: Date;
  updated_at: Date;
};

const viewOf = (row: Row, who: Viewer): SavedView => ({
  id: row.id,
  name: row.name,
  query: row.query,
  isDefault: row.is_default,
  shared: row.shared,
  owner: row.owner_email ? { email: row.owner_email, name: row.owner_name ?? '' } : null,
  mine: row.owner_id === who.personId,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

// Another organisation's view, a colleague's own, a deleted one and an ID of no shape read alike: nothing to find here.
const notFound = () => new AppError('not_found', 'no saved view with this id in your organisation', { field: 'id' });
const nameTaken = (name: string) =>
  new AppError('conflict', `a view named "${name}" already exists in your organisation; choose another name`, {
    field: 'name',
  });

/** What a change to a view did, for the activity log. */
export type ViewChangeResult = { view: SavedView; before: SavedView };

/**
 * An organisation's saved views, a row each: the ones it shares, and each person's own. Every call names the
 * organisation and who asks. The writes of one organisation take turns (a transaction-scoped advisory lock),
 * so the most-views rule, the unique name and the single default hold however many people save at once; the
 * database's unique indexes back them up. Sharing a view, changing a shared one and choosing the default
 * need the editor role.
 */
export class SavedViewsStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
  ) {}

  /** What `who` sees, by name as people look for one (case aside). */
  async list(organisationId: string, who: Viewer): Promise<SavedView[]> {
    const rows = await this.guard(() =>
      this.#select(this.db, organisationId, who)
        .orderBy(sql`lower(v.name)`)
        .orderBy('v.name')
        .execute(),
    );
    return rows.map((r) => viewOf(r, who));
  }

  /** The view `/batches` opens with when its URL holds no state, or null. */
  async defaultView(organisationId: string): Promise<{ name: string; query: string } | null> {
    const row = await this.guard(() =>
      this.db
        .selectFrom('saved_views')
        .select(['name', 'query'])
        .where('organisation_id', '=', organisationId)
        .where('is_default', '=', true)
        .executeTakeFirst(),
    );
    return row ?? null;
  }

  async create(organisationId: string, who: Viewer, input: unknown): Promise<SavedView> {
    const parsed = ViewCreateSchema.safeParse(input);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const { name, query, isDefault = false } = parsed.data;
    const shared = isDefault || parsed.data.shared === true;
    if (isDefault) requireRole(who.role, 'editor', 'making a view the default');
    else if (shared) requireRole(who.role, 'editor', 'sharing a view with the organisation');
    return this.#write(organisationId, who, async (trx) => {
      const { count } = await trx
        .selectFrom('saved_views as v')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('v.organisation_id', '=', organisationId)
        .where((eb) => eb.or([eb('v.shared', '=', true), eb('v.owner_id', '=', who.personId)]))
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_VIEWS) {
        throw new AppError(
          'conflict',
          `you see at most ${MAX_VIEWS} saved views in your organisation; delete one first`,
          { field: 'views' },
        );
      }
      await this.#nameFree(trx, organisationId, who, name, null);
      if (isDefault) await this.#clearDefault(trx, organisationId);
      const { id } = await trx
        .insertInto('saved_views')
        .values({
          organisation_id: organisationId,
          owner_id: who.personId,
          shared,
          name,
          query,
          is_default: isDefault,
          created_at: STATEMENT_TIME,
          updated_at: STATEMENT_TIME,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    }).then((r) => r.view);
  }

  /**
   * Renames the view, makes it the default (which shares it; the previous default no longer is) or not, shares
   * it or takes it back (a default taken back is no longer the default). 404 for a view `who` does not see.
   */
  async change(organisationId: string, who: Viewer, id: string, input: unknown): Promise<ViewChangeResult> {
    const parsed = ViewChangeSchema.safeParse(input);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    if (!UUID.test(id)) throw notFound();
    const { name, isDefault, shared } = parsed.data;
    return this.#write(organisationId, who, async (trx, before) => {
      const found = before(await this.#select(trx, organisationId, who).where('v.id', '=', id).executeTakeFirst());
      if (found.shared) requireRole(who.role, 'editor', 'changing a view shared with the organisation');
      if (isDefault !== undefined && isDefault !== found.is_default)
        requireRole(who.role, 'editor', 'choosing the default view');
      if (shared !== undefined && shared !== found.shared)
        requireRole(who.role, 'editor', 'sharing a view with the organisation');
      const nextShared = isDefault === true ? true : (shared ?? found.shared);
      const nextDefault = nextShared ? (isDefault ?? found.is_default) : false;
      await this.#nameFree(trx, organisationId, who, name ?? found.name, id);
      if (nextDefault && !found.is_default) await this.#clearDefault(trx, organisationId);
      await trx
        .updateTable('saved_views')
        .set({
          updated_at: NOW,
          ...(name !== undefined && { name }),
          shared: nextShared,
          is_default: nextDefault,
          // A view the organisation kept, taken back, becomes the one of whoever took it back.
          owner_id: found.owner_id ?? who.personId,
        })
        .where('organisation_id', '=', organisationId)
        .where('id', '=', id)
        .execute();
      return id;
    });
  }

  /** Deletes the view (the owner's own, or a shared one by an editor); the view as it was, for the log. */
  async delete(organisationId: string, who: Viewer, id: string): Promise<SavedView> {
    if (!UUID.test(id)) throw notFound();
    const row = await this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        const found = await this.#select(trx, organisationId, who).where('v.id', '=', id).executeTakeFirst();
        if (!found) throw notFound();
        if (found.shared) requireRole(who.role, 'editor', 'deleting a view shared with the organisation');
        await trx
          .deleteFrom('saved_views')
          .where('organisation_id', '=', organisationId)
          .where('id', '=', id)
          .execute();
        return found;
      }),
    );
    return viewOf(row, who);
  }

  /** The views `who` sees in the organisation, with their owner. */
  #select(db: SettingsDb | Transaction<SettingsTables>, organisationId: string, who: Viewer) {
    return db
      .selectFrom('saved_views as v')
      .leftJoin('people as p', 'p.id', 'v.owner_id')
      .select([
        'v.id',
        'v.name',
        'v.query',
        'v.is_default',
        'v.shared',
        'v.owner_id',
        'p.email as owner_email',
        'p.name as owner_name',
        'v.created_at',
        'v.updated_at',
      ])
      .where('v.organisation_id', '=', organisationId)
      .where((eb) => eb.or([eb('v.shared', '=', true), eb('v.owner_id', '=', who.personId)]));
  }

  /**
   * `work` in a transaction that holds the organisation's views lock, then the view it wrote as `who` sees it
   * (and as it was before, when `work` read it through `before`); a name the unique index refuses is a conflict.
   */
  async #write(
    organisationId: string,
    who: Viewer,
    work: (trx: Transaction<SettingsTables>, before: (row: Row | undefined) => Row) => Promise<string>,
  ): Promise<ViewChangeResult> {
    try {
      return await this.guard(() =>
        this.db.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(${VIEWS_LOCK}, hashtext(${organisationId}))`.execute(trx);
          let previous: Row | undefined;
          const id = await work(trx, (row) => {
            if (!row) throw notFound();
            return (previous = row);
          });
          const row = await this.#select(trx, organisationId, who).where('v.id', '=', id).executeTakeFirstOrThrow();
          const view = viewOf(row, who);
          return { view, before: previous ? viewOf(previous, who) : view };
        }),
      );
    } catch (error) {
      const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
      if (code === '23505' && (constraint === 'saved_views_shared_name' || constraint === 'saved_views_own_name')) {
        throw new AppError('conflict', 'a view of that name already exists in your organisation; choose another name', {
          field: 'name',
        });
      }
      throw error;
    }
  }

  /** A name once among what `who` sees (the shared views and their own), whatever its case. */
  async #nameFree(
    trx: Transaction<SettingsTables>,
    organisationId: string,
    who: Viewer,
    name: string,
    except: string | null,
  ) {
    let query = this.#select(trx, organisationId, who).where(sql<boolean>`lower(v.name) = lower(${name})`);
    if (except) query = query.where('v.id', '!=', except);
    const taken = await query.executeTakeFirst();
    if (taken) throw nameTaken(taken.name);
  }

  async #clearDefault(trx: Transaction<SettingsTables>, organisationId: string) {
    await trx
      .updateTable('saved_views')
      .set({ is_default: false })
      .where('organisation_id', '=', organisationId)
      .where('is_default', '=', true)
      .execute();
  }
}
