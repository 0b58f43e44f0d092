import 'server-only';
import { sql } from 'kysely';
import type { ReportSchedule, ReportScheduleInput } from '../../contract/alerts';
import { canonicalZone } from '../../explorer/zones';
import { nextRunAfter } from '../../reports/next-run';
import { AppError } from '../http/app-error';
import { requireRole, type Role } from '../people/roles';
import { UUID, type Guard, type SettingsDb } from '../settings/database';

/** Who asks: they see the organisation's shared views and their own. */
export type Asker = { personId: string; role: Role };

type Row = {
  view_id: string;
  cadence: ReportSchedule['cadence'];
  weekday: number | null;
  day_of_month: number | null;
  time: string;
  time_zone: string;
  recipients: unknown;
  language: ReportSchedule['language'] | null;
  next_run_at: Date;
  last_run_at: Date | null;
  last_result: string | null;
};

/** What a due report needs to run: the schedule, its view and organisation. */
export type DueReport = ReportSchedule & {
  organisation: { id: string; slug: string; name: string };
  viewName: string;
  query: string;
};

const COLUMNS = [
  's.view_id',
  's.cadence',
  's.weekday',
  's.day_of_month',
  's.time',
  's.time_zone',
  's.recipients',
  's.language',
  's.next_run_at',
  's.last_run_at',
  's.last_result',
] as const;

function scheduleOf(row: Row): ReportSchedule {
  const recipients = (typeof row.recipients === 'string' ? JSON.parse(row.recipients) : row.recipients) as string[];
  return {
    viewId: row.view_id,
    cadence: row.cadence,
    ...(row.weekday !== null && { weekday: row.weekday }),
    ...(row.day_of_month !== null && { dayOfMonth: row.day_of_month }),
    time: row.time,
    timeZone: row.time_zone,
    recipients,
    ...(row.language !== null && { language: row.language }),
    nextRunAt: row.next_run_at.toISOString(),
    lastRunAt: row.last_run_at?.toISOString() ?? null,
    lastResult: row.last_result,
  };
}

const noView = () => new AppError('not_found', 'no saved view with this id in your organisation', { field: 'id' });
const noSchedule = () => new AppError('not_found', 'this view is not sent on a schedule', { field: 'schedule' });
const invalid = (field: string, message: string) => new AppError('invalid_input', message, { field });

/**
 * Each saved view's report schedule: read by whoever sees the view, set or removed by an editor or
 * administrator (a shared view is the organisation's; a person's own view only they see). Recipients are
 * people of the organisation. The next run is computed in the schedule's zone on every save; the runner
 * claims a due run by moving `next_run_at` on in one conditional update, so each run happens once however
 * many instances look.
 */
export class ReportSchedulesStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
  ) {}

  async get(organisationId: string, who: Asker, viewId: string): Promise<ReportSchedule> {
    await this.#view(organisationId, who, viewId);
    const row = await this.guard(() =>
      this.db.selectFrom('report_schedules as s').select(COLUMNS).where('s.view_id', '=', viewId).executeTakeFirst(),
    );
    if (!row) throw noSchedule();
    return scheduleOf(row);
  }

  /** Sets the view's schedule (replacing any); `now` is when the next run is counted from. */
  async put(
    organisationId: string,
    who: Asker,
    viewId: string,
    input: ReportScheduleInput,
    now = Date.now(),
  ): Promise<{ schedule: ReportSchedule; before: ReportSchedule | null; viewName: string }> {
    const view = await this.#view(organisationId, who, viewId);
    requireRole(who.role, 'editor', 'sending a view on a schedule');
    const timeZone = canonicalZone(input.timeZone);
    if (timeZone === null)
      throw invalid('timeZone', `${JSON.stringify(input.timeZone.slice(0, 64))} is not an IANA time zone`);
    if (input.cadence === 'weekly' && input.weekday === undefined)
      throw invalid('weekday', 'a weekly report needs a weekday, 1 (Monday) to 7 (Sunday)');
    if (input.cadence === 'monthly' && input.dayOfMonth === undefined)
      throw invalid('dayOfMonth', 'a monthly report needs a day of the month, 1 to 28');
    const recipients = [...new Set(input.recipients)];
    await this.#checkRecipients(organisationId, input.recipients);
    const timing = { ...input, timeZone };
    const values = {
      view_id: viewId,
      organisation_id: organisationId,
      cadence: input.cadence,
      weekday: input.cadence === 'weekly' ? input.weekday! : null,
      day_of_month: input.cadence === 'monthly' ? input.dayOfMonth! : null,
      time: input.time,
      time_zone: timeZone,
      recipients: JSON.stringify(recipients),
      language: input.language ?? null,
      next_run_at: new Date(nextRunAfter(timing, now)),
      updated_by: who.personId,
      updated_at: new Date(now),
    };
    return this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('report_schedules as s')
          .select(COLUMNS)
          .where('s.view_id', '=', viewId)
          .forUpdate()
          .executeTakeFirst();
        const { organisation_id: _o, view_id: _v, ...change } = values;
        const row = await trx
          .insertInto('report_schedules')
          .values(values)
          .onConflict((oc) => oc.column('view_id').doUpdateSet(change))
          .returning([
            'view_id',
            'cadence',
            'weekday',
            'day_of_month',
            'time',
            'time_zone',
            'recipients',
            'language',
            'next_run_at',
            'last_run_at',
            'last_result',
          ])
          .executeTakeFirstOrThrow();
        return { schedule: scheduleOf(row), before: before ? scheduleOf(before) : null, viewName: view.name };
      }),
    );
  }

  /** Stops sending the view; the schedule as it was and the view's name, for the log. */
  async delete(
    organisationId: string,
    who: Asker,
    viewId: string,
  ): Promise<{ before: ReportSchedule; viewName: string }> {
    const view = await this.#view(organisationId, who, viewId);
    requireRole(who.role, 'editor', 'sending a view on a schedule');
    const row = await this.guard(() =>
      this.db
        .deleteFrom('report_schedules')
        .where('view_id', '=', viewId)
        .returning([
          'view_id',
          'cadence',
          'weekday',
          'day_of_month',
          'time',
          'time_zone',
          'recipients',
          'language',
          'next_run_at',
          'last_run_at',
          'last_result',
        ])
        .executeTakeFirst(),
    );
    if (!row) throw noSchedule();
    return { before: scheduleOf(row), viewName: view.name };
  }

  /** The schedules whose run is due at `now`, oldest first. */
  async due(now: number, limit = 50): Promise<{ viewId: string; nextRunAt: string }[]> {
    const rows = await this.guard(() =>
      this.db
        .selectFrom('report_schedules')
        .select(['view_id', 'next_run_at'])
        .where('next_run_at', '<=', new Date(now))
        .orderBy('next_run_at')
        .limit(limit)
        .execute(),
    );
    return rows.map((r) => ({ viewId: r.view_id, nextRunAt: r.next_run_at.toISOString() }));
  }

  /**
   * Takes the run due at `dueAt` for this instance: moves the next run past `now` (a run missed while no
   * instance ran is made up once, not once per missed period). False when another instance took it first or
   * the schedule changed meanwhile.
   */
  async claim(viewId: string, dueAt: string, now: number): Promise<DueReport | null> {
    return this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        const found = await this.#dueQuery(trx)
          .where('s.view_id', '=', viewId)
          .where('s.next_run_at', '=', new Date(dueAt))
          .forUpdate()
          .executeTakeFirst();
        if (!found) return null;
        const report = dueOf(found);
        const next = new Date(nextRunAfter(report, Math.max(now, Date.parse(dueAt))));
        const moved = await trx
          .updateTable('report_schedules')
          .set({ next_run_at: next })
          .where('view_id', '=', viewId)
          .where('next_run_at', '=', new Date(dueAt))
          .executeTakeFirst();
        return moved.numUpdatedRows === 1n ? { ...report, nextRunAt: next.toISOString() } : null;
      }),
    );
  }

  /** How a run went (`sent to 3 people`, or why it failed), kept on the schedule. */
  async recordResult(viewId: string, at: number, result: string): Promise<void> {
    await this.guard(() =>
      this.db
        .updateTable('report_schedules')
        .set({ last_run_at: new Date(at), last_result: result.slice(0, 500) })
        .where('view_id', '=', viewId)
        .execute(),
    );
  }

  #dueQuery(db: Pick<SettingsDb, 'selectFrom'>) {
    return db
      .selectFrom('report_schedules as s')
      .innerJoin('saved_views as v', 'v.id', 's.view_id')
      .innerJoin('organisations as o', 'o.id', 's.organisation_id')
      .select([
        ...COLUMNS,
        's.organisation_id',
        'o.slug',
        'o.name as organisation_name',
        'v.name as view_name',
        'v.query',
      ]);
  }

  /** The view as `who` sees it (shared, or their own), or a 404 like the views' own routes. */
  async #view(organisationId: string, who: Asker, viewId: string): Promise<{ name: string; shared: boolean }> {
    if (!UUID.test(viewId)) throw noView();
    const view = await this.guard(() =>
      this.db
        .selectFrom('saved_views')
        .select(['name', 'shared'])
        .where('organisation_id', '=', organisationId)
        .where('id', '=', viewId)
        .where((eb) => eb.or([eb('shared', '=', true), eb('owner_id', '=', who.personId)]))
        .executeTakeFirst(),
    );
    if (!view) throw noView();
    return view;
  }

  /** The recipients still active people of the organisation, with the language their account chose (null: none). */
  async activeRecipients(
    organisationId: string,
    emails: readonly string[],
  ): Promise<{ email: string; language: string | null }[]> {
    if (emails.length === 0) return [];
    const rows = await this.guard(() =>
      this.db
        .selectFrom('memberships as m')
        .innerJoin('people as p', 'p.id', 'm.person_id')
        .select(['p.email', 'p.language'])
        .where('m.organisation_id', '=', organisationId)
        .where('p.disabled_at', 'is', null)
        .where(
          sql<string>`lower(p.email)`,
          'in',
          emails.map((e) => e.toLowerCase()),
        )
        .execute(),
    );
    return rows;
  }

  /** Every recipient an active person of the organisation; 422 naming the first that is not. */
  async #checkRecipients(organisationId: string, recipients: readonly string[]): Promise<void> {
    const rows = await this.guard(() =>
      this.db
        .selectFrom('memberships as m')
        .innerJoin('people as p', 'p.id', 'm.person_id')
        .select(sql<string>`lower(p.email)`.as('email'))
        .where('m.organisation_id', '=', organisationId)
        .where('p.disabled_at', 'is', null)
        .execute(),
    );
    const members = new Set(rows.map((r) => r.email));
    const outside = recipients.findIndex((r) => !members.has(r.toLowerCase()));
    if (outside >= 0)
      throw invalid(`recipients.${outside}`, `${recipients[outside]} is not a person of this organisation`);
  }
}

function dueOf(
  row: Row & { organisation_id: string; slug: string; organisation_name: string; view_name: string; query: string },
): DueReport {
  return {
    ...scheduleOf(row),
    organisation: { id: row.organisation_id, slug: row.slug, name: row.organisation_name },
    viewName: row.view_name,
    query: row.query,
  };
}
