import 'server-only';
import { sql, type Selectable, type Transaction } from 'kysely';
import { MAX_VIEWS, type SavedView } from '../../contract/views';
import { ViewChangeSchema, ViewCreateSchema } from '../../contract/schemas';
import { AppError, invalidInput } from '../app-error';
import type { SavedViewsTable, SettingsDb, SettingsTables } from './database';

/** The settings store's guard: migrations first, an unreachable database as `store_unavailable`. */
type Guard = <R>(work: () => Promise<R>) => Promise<R>;

/** One instant per statement: a new view's created_at and updated_at are the same (two clock_timestamp() calls can differ). */
const STATEMENT_TIME = sql<Date>`date_trunc('milliseconds', statement_timestamp())`;
const NOW = sql<Date>`date_trunc('milliseconds', clock_timestamp())`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The first key of the advisory locks that order one organisation's writes to its views (the second: its ID's hash). */
const VIEWS_LOCK = 1_447_381;
const COLUMNS = ['id', 'name', 'query', 'is_default', 'created_at', 'updated_at'] as const;

type Row = Pick<Selectable<SavedViewsTable>, (typeof COLUMNS)[number]>;

const viewOf = (row: Row): SavedView => ({
  id: row.id,
  name: row.name,
  query: row.query,
  isDefault: row.is_default,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

// Another organisation's view, a deleted one and an ID of no shape at all read alike: nothing to find here.
const notFound = () => new AppError('not_found', 'no saved view with this id in your organisation', { field: 'id' });
const nameTaken = (name: string) => new AppError('conflict', `a view named "${name}" already exists in your organisation; choose another name`, { field: 'name' });

/**
 * An organisation's saved views, a row each. Every call names the organisation. The writes of one
 * organisation take turns (a transaction-scoped advisory lock), so the most-views rule, the unique name and
 * the single default hold however many people save at once; the database's unique indexes back them up.
 */
export class SavedViewsStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
  ) {}

  /** By name, as people look for one (case aside). */
  async list(clientId: string): Promise<SavedView[]> {
    const rows = await this.guard(() =>
      this.db.selectFrom('saved_views').select(COLUMNS).where('client_id', '=', clientId).orderBy(sql`lower(name)`).orderBy('name').execute(),
    );
    return rows.map(viewOf);
  }

  /** The view `/batches` opens with when its URL holds no state, or null. */
  async defaultView(clientId: string): Promise<SavedView | null> {
    const row = await this.guard(() =>
      this.db.selectFrom('saved_views').select(COLUMNS).where('client_id', '=', clientId).where('is_default', '=', true).executeTakeFirst(),
    );
    return row ? viewOf(row) : null;
  }

  async create(clientId: string, input: unknown): Promise<SavedView> {
    const parsed = ViewCreateSchema.safeParse(input);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    const { name, query, isDefault = false } = parsed.data;
    return this.#write(clientId, async (trx) => {
      const { count } = await trx.selectFrom('saved_views').select((eb) => eb.fn.countAll<string>().as('count')).where('client_id', '=', clientId).executeTakeFirstOrThrow();
      if (Number(count) >= MAX_VIEWS) {
        throw new AppError('conflict', `your organisation keeps at most ${MAX_VIEWS} saved views; delete one first`, { field: 'views' });
      }
      await this.#nameFree(trx, clientId, name, null);
      if (isDefault) await this.#clearDefault(trx, clientId);
      return trx
        .insertInto('saved_views')
        .values({ client_id: clientId, name, query, is_default: isDefault, created_at: STATEMENT_TIME, updated_at: STATEMENT_TIME })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    });
  }

  /** Renames the view, makes it the default (the previous one no longer is) or no longer the default. */
  async change(clientId: string, id: string, input: unknown): Promise<SavedView> {
    const parsed = ViewChangeSchema.safeParse(input);
    if (!parsed.success) throw invalidInput(parsed.error, 'body');
    if (!UUID.test(id)) throw notFound();
    const { name, isDefault } = parsed.data;
    return this.#write(clientId, async (trx) => {
      const found = await trx.selectFrom('saved_views').select('id').where('client_id', '=', clientId).where('id', '=', id).executeTakeFirst();
      if (!found) throw notFound();
      if (name !== undefined) await this.#nameFree(trx, clientId, name, id);
      if (isDefault) await this.#clearDefault(trx, clientId);
      return trx
        .updateTable('saved_views')
        .set({ updated_at: NOW, ...(name !== undefined && { name }), ...(isDefault !== undefined && { is_default: isDefault }) })
        .where('client_id', '=', clientId)
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    });
  }

  async delete(clientId: string, id: string): Promise<void> {
    if (!UUID.test(id)) throw notFound();
    const result = await this.guard(() => this.db.deleteFrom('saved_views').where('client_id', '=', clientId).where('id', '=', id).executeTakeFirst());
    if (result.numDeletedRows === BigInt(0)) throw notFound();
  }

  /** `work` in a transaction that holds the organisation's views lock; a name the unique index refuses is a conflict. */
  async #write(clientId: string, work: (trx: Transaction<SettingsTables>) => Promise<Row>): Promise<SavedView> {
    try {
      const row = await this.guard(() =>
        this.db.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(${VIEWS_LOCK}, hashtext(${clientId}))`.execute(trx);
          return work(trx);
        }),
      );
      return viewOf(row);
    } catch (error) {
      const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
      if (code === '23505' && constraint === 'saved_views_name') throw new AppError('conflict', 'a view of that name already exists in your organisation; choose another name', { field: 'name' });
      throw error;
    }
  }

  async #nameFree(trx: Transaction<SettingsTables>, clientId: string, name: string, except: string | null) {
    let query = trx.selectFrom('saved_views').select('name').where('client_id', '=', clientId).where(sql<boolean>`lower(name) = lower(${name})`);
    if (except) query = query.where('id', '!=', except);
    const taken = await query.executeTakeFirst();
    if (taken) throw nameTaken(taken.name);
  }

  async #clearDefault(trx: Transaction<SettingsTables>, clientId: string) {
    await trx.updateTable('saved_views').set({ is_default: false }).where('client_id', '=', clientId).where('is_default', '=', true).execute();
  }
}
