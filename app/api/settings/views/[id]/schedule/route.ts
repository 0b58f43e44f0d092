import type { ReportSchedule } from '@/lib/contract/alerts';
import { ReportScheduleSchema } from '@/lib/server/alerts/api-schemas';
import { recordActivity, type ActivitySource } from '@/lib/server/audit/record';
import { pathSegment } from '@/lib/server/input/path-segment';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

const asker = (source: ActivitySource) => ({ personId: source.actor.person.id, role: source.actor.role });
/** The view's id: the segment before `schedule`. */
const viewId = (request: Request) => pathSegment(request, -2);
/** A schedule as the activity log keeps it: when and to whom, not when it ran. */
const logged = ({ cadence, weekday, dayOfMonth, time, timeZone, recipients, language }: ReportSchedule) => ({
  cadence,
  weekday,
  dayOfMonth,
  time,
  timeZone,
  recipients,
  language,
});

/** The view's report schedule with its next run; 404 `schedule: …` when the view is not sent. */
export const GET = route({ auth: true }, async (ctx) =>
  Response.json(
    (await settingsStore().reports.get(
      ctx.actor.organisation.id,
      asker(ctx),
      viewId(ctx.request),
    )) satisfies ReportSchedule,
  ),
);

/**
 * Sends the view on a schedule (or changes it): editors and administrators, for a shared view or their own;
 * the recipients people of the organisation; 422 naming the field for a zone, weekday or day that is missing or wrong.
 */
export const PUT = route({ auth: true, body: ReportScheduleSchema }, async (ctx) => {
  const { schedule, before, viewName } = await settingsStore().reports.put(
    ctx.actor.organisation.id,
    asker(ctx),
    viewId(ctx.request),
    ctx.body,
  );
  await recordActivity(ctx, 'report_scheduled', {
    subject: viewName,
    before: before && logged(before),
    after: logged(schedule),
  });
  return Response.json(schedule satisfies ReportSchedule);
});

export const DELETE = route({ auth: true }, async (ctx) => {
  const { before, viewName } = await settingsStore().reports.delete(
    ctx.actor.organisation.id,
    asker(ctx),
    viewId(ctx.request),
  );
  await recordActivity(ctx, 'report_unscheduled', { subject: viewName, before: logged(before) });
  return new Response(null, { status: 204 });
});

export const { HEAD, OPTIONS, POST, PATCH } = otherMethods({ GET, PUT, DELETE });
