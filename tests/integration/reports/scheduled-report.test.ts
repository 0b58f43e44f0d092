import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as activity from '@/app/api/admin/activity/route';
import * as people from '@/app/api/people/route';
import * as schedule from '@/app/api/settings/views/[id]/schedule/route';
import * as viewById from '@/app/api/settings/views/[id]/route';
import * as views from '@/app/api/settings/views/route';
import type { ReportSchedule } from '@/lib/contract/alerts';
import { rangeToQuery } from '@/lib/explorer/date-range';
import { exportFileName } from '@/lib/export/file-name';
import { resolveRange, todayIn } from '@/lib/explorer/range/rolling';
import { nextRunAfter } from '@/lib/reports/next-run';
import { PgBossRunner } from '@/lib/server/jobs/pg-boss-runner';
import { claimDueReports, runReport, startReportSchedules } from '@/lib/server/reports/report-runner';
import { embeddedSql } from '@/lib/server/settings/database';
import { settingsStore } from '@/lib/server/settings';
import { bffForFile, call, detailOf, json, PEOPLE, signIn } from '../../helpers/bff';
import { startMailServer, type MailServer } from '../../helpers/mail-server';
import { tokenFor, walkV2 } from '../../helpers/sandbox';
import { readXlsx } from '../../helpers/xlsx';

/**
 * A saved view sent on a schedule: the schedule's route (who may, what is refused, the next run in its zone), then
 * the report run on the server and received by a real SMTP server on loopback, read back with mailparser, its
 * workbook with read-excel-file, and checked against the sandbox's own batches of the view's range that day.
 */
const SMTP_PORT = 4966;
const sandbox = bffForFile({
  SIGNIN_ATTEMPTS_PER_IP: '100000',
  SMTP_URL: `smtp://alerts:mail-secret-pass@127.0.0.1:${SMTP_PORT}`,
  APP_ORIGIN: 'http://app.test',
});

let mail: MailServer;
beforeAll(async () => {
  mail = await startMailServer({ port: SMTP_PORT });
});
afterAll(async () => {
  await mail.close();
});

const QUERY = 'from=now-30d&to=now&tz=Europe/Berlin&sort=batch_name&dir=asc&hide=comment,images,analysis';
const EDITOR = PEOPLE.demo.editor;
const WEEKLY = {
  cadence: 'weekly',
  weekday: 1,
  time: '07:30',
  timeZone: 'Europe/Berlin',
  recipients: [EDITOR.email, PEOPLE.demo.viewer.email],
};

async function aView(cookie: string, name: string, query = QUERY, shared = true): Promise<string> {
  const made = await call(views.POST, '/api/settings/views', cookie, 'POST', { name, query, shared });
  expect(made.status).toBe(201);
  return (await json<{ id: string }>(made)).id;
}
const path = (id: string) => `/api/settings/views/${id}/schedule`;
/** A morning on the last day of the sandbox's data (tests/helpers/sandbox.ts anchors it at 1 June 2026): the reports run then. */
const SANDBOX_DAY = Date.parse('2026-05-31T05:30:00Z');

describe('a saved view’s schedule', () => {
  it('is set by an editor, its next run in its zone; refused for bad input naming the field, and to viewers', async () => {
    const editor = await signIn(EDITOR);
    const viewer = await signIn(PEOPLE.demo.viewer);
    const id = await aView(editor, 'Weekly germination');
    expect((await call(schedule.GET, path(id), editor)).status).toBe(404);

    const put = (body: unknown, cookie = editor) => call(schedule.PUT, path(id), cookie, 'PUT', body);
    const refused = async (body: unknown, status: number) => {
      const response = await put(body);
      expect(response.status).toBe(status);
      return detailOf(response);
    };
    expect(await refused({ ...WEEKLY, timeZone: 'Mars/Olympus_Mons' }, 422)).toBe(
      'timeZone: "Mars/Olympus_Mons" is not an IANA time zone',
    );
    expect(await refused({ ...WEEKLY, weekday: undefined }, 422)).toMatch(/^weekday: a weekly report needs a weekday/);
    expect(await refused({ ...WEEKLY, cadence: 'monthly' }, 422)).toMatch(/^dayOfMonth: /);
    expect(await refused({ ...WEEKLY, time: '25:00' }, 422)).toMatch(/^time: /);
    expect(await refused({ ...WEEKLY, recipients: [] }, 422)).toMatch(/^recipients: /);
    expect(await refused({ ...WEEKLY, recipients: [EDITOR.email, 'someone@elsewhere.example'] }, 422)).toBe(
      'recipients.1: someone@elsewhere.example is not a person of this organisation',
    );
    expect(await refused({ ...WEEKLY, recipients: [PEOPLE.other.editor.email] }, 422)).toMatch(/^recipients.0: /);
    expect((await put(WEEKLY, viewer)).status).toBe(403);

    const before = Date.now();
    const saved = await put(WEEKLY);
    expect(saved.status).toBe(200);
    const body = await json<ReportSchedule>(saved);
    expect(body).toMatchObject({
      viewId: id,
      cadence: 'weekly',
      weekday: 1,
      time: '07:30',
      timeZone: 'Europe/Berlin',
      lastRunAt: null,
      lastResult: null,
    });
    const next = Date.parse(body.nextRunAt);
    // A Monday at 07:30 on Berlin's clock, within the coming week.
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
    }).format(next);
    expect(local).toBe('Monday 07:30');
    expect(next).toBe(
      nextRunAfter({ cadence: 'weekly', weekday: 1, time: '07:30', timeZone: 'Europe/Berlin' }, before),
    );
    expect(await json(await call(schedule.GET, path(id), viewer))).toEqual(body);

    // The people one may send to: the organisation's.
    const list = await json<{ people: { email: string }[] }>(await call(people.GET, '/api/people', editor));
    expect(list.people.map((p) => p.email)).toContain(PEOPLE.demo.viewer.email);

    const log = await json<{ entries: { action: string; subject: string }[] }>(
      await call(activity.GET, '/api/admin/activity?action=report_scheduled', await signIn(PEOPLE.demo.admin)),
    );
    expect(log.entries.some((e) => e.subject === 'Weekly germination')).toBe(true);

    expect((await call(schedule.DELETE, path(id), viewer, 'DELETE')).status).toBe(403);
    expect((await call(schedule.DELETE, path(id), editor, 'DELETE')).status).toBe(204);
    expect((await call(schedule.GET, path(id), editor)).status).toBe(404);
    expect((await call(schedule.DELETE, path(id), editor, 'DELETE')).status).toBe(404);
  });

  it('goes with its view, and a colleague’s own view has none to see', async () => {
    const editor = await signIn(EDITOR);
    const id = await aView(editor, 'Goes with its view', QUERY, false);
    expect((await call(schedule.PUT, path(id), editor, 'PUT', WEEKLY)).status).toBe(200);
    expect((await call(schedule.GET, path(id), await signIn(PEOPLE.demo.admin))).status).toBe(404);
    expect((await call(viewById.DELETE, `/api/settings/views/${id}`, editor, 'DELETE')).status).toBe(204);
    const left = await settingsStore()
      .db.selectFrom('report_schedules')
      .select('view_id')
      .where('view_id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('the report, sent', () => {
  it('runs a missed run once, and e-mails each recipient the summary, the rows below target and the view’s workbook', async () => {
    const editor = await signIn(EDITOR);
    const id = await aView(editor, 'Last 30 days by name');
    expect((await call(schedule.PUT, path(id), editor, 'PUT', { ...WEEKLY, language: 'en' })).status).toBe(200);
    // The run at the sandbox's last day, three weeks missed (no instance ran): it is due, once.
    const now = SANDBOX_DAY;
    const missed = new Date(now - 21 * 86_400_000);
    await settingsStore()
      .db.updateTable('report_schedules')
      .set({ next_run_at: missed })
      .where('view_id', '=', id)
      .execute();
    const results: string[] = [];
    const run = (at: number) => claimDueReports(at, async (report) => void results.push(await runReport(report, at)));
    const [first, second] = await Promise.all([run(now), run(now)]);
    expect(first + second).toBe(1);
    expect(await run(now + 1000)).toBe(0);
    const received = await mail.waitFor(2);
    expect(received).toHaveLength(2);
    const after = await json<ReportSchedule>(await call(schedule.GET, path(id), editor));
    expect(Date.parse(after.nextRunAt)).toBeGreaterThan(now);
    expect(after.lastRunAt).toBe(new Date(now).toISOString());
    expect(after.lastResult).toBe(results[0]);
    expect(after.lastResult).toMatch(/^sent to 2 of 2 recipients/);

    // The batches of the view's range that day, from the sandbox itself.
    const days = resolveRange('now-30d', 'now', todayIn('Europe/Berlin', now));
    const range = rangeToQuery(days.from, days.to, 'Europe/Berlin');
    const { batches } = await walkV2(sandbox(), await tokenFor(sandbox()), {
      start_date: range.start_date!,
      end_date: range.end_date!,
    });
    expect(batches.length).toBeGreaterThan(10);

    const message = received.find((m) => m.envelopeTo.includes(EDITOR.email))!.mail;
    expect(message.subject).toMatch(/^Last 30 days by name: /);
    expect(message.to && 'text' in message.to ? message.to.text : '').toBe(EDITOR.email);
    expect(message.text).toContain(`Batches: ${batches.length.toLocaleString('en')}`);
    expect(message.text).toContain('http://app.test/batches?from=now-30d&to=now&tz=Europe/Berlin');
    expect(message.text).toContain('org=demo');
    expect(message.text).toContain('The printed report (PDF) is available from the link');
    expect(message.html).toContain('Below target');

    const [workbook] = message.attachments;
    expect(workbook!.filename).toBe(
      exportFileName({ organisation: EDITOR.orgName, from: days.from, to: days.to }, 'xlsx'),
    );
    expect(workbook!.filename).toMatch(/-batches-2026-05-02-to-2026-05-31\.xlsx$/);
    const book = await readXlsx(workbook!.content);
    const [data, viewSheet] = book.sheets;
    expect(data!.rows[0]).toEqual([
      'Created (Europe/Berlin)',
      'Batch',
      'Crop',
      'Germination (%)',
      'Target (%)',
      'Off target',
      'Usable (%)',
      'Cells/tray',
      'Size CV (%)',
      'Median size (mm²)',
      'Warnings',
      'Germinated/tray',
      'Scanned by',
    ]);
    const names = data!.rows.slice(1).map((r) => String(r[1]));
    expect(names).toHaveLength(batches.length);
    expect([...names].sort()).toEqual((batches as unknown as { batch_name: string }[]).map((b) => b.batch_name).sort());
    // In the view's order: by name, A to Z.
    expect(names.map((n) => n.toLowerCase())).toEqual(
      [...names.map((n) => n.toLowerCase())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    expect(viewSheet!.name).toBe('View');
    expect(viewSheet!.rows).toContainEqual(['Time zone', 'Europe/Berlin']);
    expect(viewSheet!.rows).toContainEqual(['Batches', String(batches.length)]);
    expect(book.frozen && book.autoFilter).toBe(true);

    // The summary card's weighted germination, worked out here from the service's own figures (tray size the weight).
    type Figures = { avg_germination_rate: string | null; total_cells_per_tray: number | null };
    const figures = batches as unknown as Figures[];
    const known = figures.filter((b) => b.total_cells_per_tray !== null);
    const fallback = known.reduce((a, b) => a + b.total_cells_per_tray!, 0) / known.length;
    let weight = 0,
      sum = 0;
    for (const b of figures) {
      if (b.avg_germination_rate === null) continue;
      const w = b.total_cells_per_tray ?? fallback;
      weight += w;
      sum += w * Number(b.avg_germination_rate);
    }
    expect(message.text).toContain(`Germination (weighted): ${(sum / weight).toFixed(1)}%`);
    // The rows below target the e-mail counts are the workbook's rows with an Off target entry.
    const offTarget = data!.rows.slice(1).filter((r) => r[5] !== null && r[5] !== '').length;
    expect(message.text).toContain(`Batches below target (${offTarget.toLocaleString('en')}):`);
    expect(message.text).toContain(`Below target: ${offTarget.toLocaleString('en')} (`);
    const listed = message.text!.split('\n').filter((line) => line.startsWith('  - '));
    expect(listed).toHaveLength(Math.min(offTarget, 20));
    if (offTarget > 20) expect(message.text).toContain(`${offTarget - 20} more batches are below target`);
    expect(message.html).toMatch(/href="http:\/\/app\.test\/batches\?[^"]*batch=/);
  });

  it('speaks the schedule’s language', async () => {
    const editor = await signIn(EDITOR);
    const id = await aView(editor, 'Auf Deutsch', 'from=now-7d&to=now&tz=Europe/Berlin&below=1');
    expect(
      (await call(schedule.PUT, path(id), editor, 'PUT', { ...WEEKLY, recipients: [EDITOR.email], language: 'de' }))
        .status,
    ).toBe(200);
    const now = SANDBOX_DAY;
    await settingsStore()
      .db.updateTable('report_schedules')
      .set({ next_run_at: new Date(now - 60_000) })
      .where('view_id', '=', id)
      .execute();
    const already = mail.received.length;
    expect(await claimDueReports(now, async (report) => void (await runReport(report, now)))).toBe(1);
    const message = (await mail.waitFor(already + 1))[already]!.mail;
    expect(message.subject).toMatch(/^Auf Deutsch: /);
    expect(message.text).toContain('Übersicht');
    expect(message.text).toContain('Chargen unter Sollwert');
    const book = await readXlsx(message.attachments[0]!.content);
    expect(book.sheets[1]!.name).toBe('Ansicht');
  });
});

describe('on the job runner', () => {
  it('finds a due report on its own and sends it once', async () => {
    const editor = await signIn(EDITOR);
    const id = await aView(editor, 'May, on the runner', 'from=2026-05-01&to=2026-05-31&tz=UTC&crop=Lettuce');
    expect((await call(schedule.PUT, path(id), editor, 'PUT', { ...WEEKLY, recipients: [EDITOR.email] })).status).toBe(
      200,
    );
    await settingsStore()
      .db.updateTable('report_schedules')
      .set({ next_run_at: new Date(Date.now() - 3 * 86_400_000) })
      .where('view_id', '=', id)
      .execute();
    // The other tests' schedules ran at the sandbox's day, long past: not due again here.
    await settingsStore()
      .db.updateTable('report_schedules')
      .set({ next_run_at: new Date('2100-01-01T00:00:00Z') })
      .where('view_id', '!=', id)
      .execute();
    const already = mail.received.length;
    const runner = new PgBossRunner(
      { executeSql: embeddedSql(settingsStore().db)! },
      { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 },
    );
    try {
      await startReportSchedules(runner);
      const message = (await mail.waitFor(already + 1))[already]!.mail;
      expect(message.subject).toMatch(/^May, on the runner: /);
      const book = await readXlsx(message.attachments[0]!.content);
      expect(book.sheets[0]!.rows.slice(1).every((r) => r[2] === 'Lettuce')).toBe(true);
      expect(book.sheets[0]!.rows.length).toBeGreaterThan(1);
    } finally {
      await runner.stop();
    }
    const after = await json<ReportSchedule>(await call(schedule.GET, path(id), editor));
    expect(after.lastResult).toMatch(/^sent to 1 of 1 recipients/);
    expect(Date.parse(after.nextRunAt)).toBeGreaterThan(Date.now());
    expect(mail.received.filter((m) => m.mail.subject?.startsWith('May, on the runner'))).toHaveLength(1);
  });
});
