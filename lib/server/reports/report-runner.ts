import 'server-only';
import { isLanguage, type Language } from '../../i18n/languages';
import { getConfig } from '../config';
import type { JobRunner } from '../jobs/runner';
import { logLine } from '../logging';
import { sendMail } from '../notify/transport';
import { settingsStore } from '../settings';
import { exportFileName } from '../../export/file-name';
import { printPdf } from './pdf-printer';
import { reportDocument, reportFooter } from './report-document';
import { reportMail } from './report-mail';
import type { DueReport } from './schedules-store';
import { loadViewBatches, reportWords, viewWorkbook, type ReportWords, type ViewBatches } from './view-report';

/** How often instances look for due reports: a report goes out within this of its time. */
export const REPORT_CHECK_S = 60;
const CHECK_JOB = 'report-schedules';
const RUN_JOB = 'report-run';

/** The view's address on APP_ORIGIN (else this server's own), in its organisation. */
export function viewUrl(report: Pick<DueReport, 'query' | 'organisation'>): string {
  const { appOrigin, server } = getConfig();
  const origin = appOrigin ?? `http://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`;
  const query = new URLSearchParams(report.query);
  query.delete('org');
  query.set('org', report.organisation.slug);
  return `${origin}/batches?${query.toString().replaceAll('%2F', '/')}`;
}

type Attachment = { filename: string; content: Buffer };

/**
 * The view's printed report as PDF in the words of `w`, when PDF_CHROMIUM_PATH names a Chromium; null without
 * one, or when it fails (logged: the e-mail then says where the printed report is made, and still goes out).
 */
async function viewPdf(report: DueReport, view: ViewBatches, w: ReportWords, made: number): Promise<Attachment | null> {
  const chromium = getConfig().reports.pdfChromium;
  if (!chromium) return null;
  const input = { organisation: report.organisation.name, viewName: report.viewName, made };
  try {
    const content = await printPdf(chromium, reportDocument(view, w, input), reportFooter(w, input, view.state.tz));
    return {
      filename: exportFileName(
        { organisation: report.organisation.name, from: view.days.from, to: view.days.to, crop: view.state.crop },
        'pdf',
      ),
      content,
    };
  } catch (error) {
    logLine('warn', 'scheduled report: the PDF was not printed; the e-mail links to Print report instead', {
      view_id: report.viewId,
      error: String(error),
    });
    return null;
  }
}

/**
 * Runs one claimed report: the view's batches loaded now (its range resolved in its zone today), one workbook
 * per language, one e-mail per recipient in the schedule's language or else their own, then the result kept on
 * the schedule. The printed report is attached as PDF where the server has a Chromium. Throws when nothing could be
 * sent (the runner retries); a partial failure is recorded.
 */
export async function runReport(report: DueReport, now = Date.now()): Promise<string> {
  const store = settingsStore();
  try {
    const recipients = await store.reports.activeRecipients(report.organisation.id, report.recipients);
    const view = await loadViewBatches(report.organisation, report.query, now);
    const url = viewUrl(report);
    const books = new Map<Language, Attachment>();
    const pdfs = new Map<Language, Attachment | null>();
    let sent = 0;
    const failed: string[] = [];
    for (const person of recipients) {
      const language: Language = report.language ?? (isLanguage(person.language) ? person.language : 'en');
      const words = reportWords(language);
      let workbook = books.get(language);
      if (!workbook) books.set(language, (workbook = await viewWorkbook(report.organisation.name, view, words, now)));
      if (!pdfs.has(language)) pdfs.set(language, await viewPdf(report, view, words, now));
      const pdf = pdfs.get(language) ?? undefined;
      const mail = reportMail(view, words, {
        to: person.email,
        viewName: report.viewName,
        organisation: report.organisation.name,
        viewUrl: url,
        workbook,
        pdf,
      });
      try {
        await sendMail(mail);
        sent++;
      } catch (error) {
        failed.push(`${person.email}: ${String((error as Error).message ?? error).slice(0, 120)}`);
      }
    }
    const noPdf =
      getConfig().reports.pdfChromium && [...pdfs.values()].some((p) => p === null)
        ? '; the PDF could not be printed'
        : '';
    const result =
      (failed.length === 0
        ? `sent to ${sent} of ${report.recipients.length} recipients, ${view.rows.length} batches`
        : `sent to ${sent}; not sent to ${failed.join('; ')}`) + noPdf;
    await store.reports.recordResult(report.viewId, now, result);
    logLine(failed.length ? 'warn' : 'info', 'scheduled report run', {
      view_id: report.viewId,
      organisation_id: report.organisation.id,
      sent,
      failed: failed.length,
    });
    if (sent === 0 && failed.length > 0) throw new Error(result);
    return result;
  } catch (error) {
    const result = `failed: ${String((error as Error).message ?? error).slice(0, 300)}`;
    await store.reports.recordResult(report.viewId, now, result).catch(() => undefined);
    logLine('warn', 'scheduled report failed', {
      view_id: report.viewId,
      organisation_id: report.organisation.id,
      error: String(error),
    });
    throw error;
  }
}

/**
 * Claims every report due at `now` (each once across instances: the claim is one conditional update) and hands
 * each to `run`. A schedule whose time passed while no instance ran is sent once, then continues on its cadence.
 */
export async function claimDueReports(now: number, run: (report: DueReport) => Promise<void>): Promise<number> {
  const store = settingsStore().reports;
  let claimed = 0;
  for (const due of await store.due(now)) {
    const report = await store.claim(due.viewId, due.nextRunAt, now);
    if (!report) continue;
    claimed++;
    await run(report);
  }
  return claimed;
}

/** The scheduled reports on the job runner: a check every minute on one instance, each claimed report a job of its own (retried with backoff). */
export async function startReportSchedules(runner: JobRunner): Promise<void> {
  await runner.work<{ report: DueReport }>(RUN_JOB, async ({ report }) => void (await runReport(report)));
  await runner.every(CHECK_JOB, REPORT_CHECK_S, async () => {
    await claimDueReports(Date.now(), (report) =>
      runner.send(RUN_JOB, { report }, { key: `${report.viewId}@${report.nextRunAt}` }),
    );
  });
}

/** Starts the scheduled reports in the background at server start; a runner that cannot start yet (the database away) is tried again a minute later. */
export function keepReportSchedules(runner: () => JobRunner): void {
  const attempt = () =>
    startReportSchedules(runner()).catch((error: unknown) => {
      logLine('warn', 'scheduled reports: the job runner did not start; trying again in a minute', {
        error: String(error),
      });
      setTimeout(attempt, 60_000).unref();
    });
  void attempt();
}
