import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schedule from '@/app/api/settings/views/[id]/schedule/route';
import * as views from '@/app/api/settings/views/route';
import type { ReportSchedule } from '@/lib/contract/alerts';
import { rangeToQuery } from '@/lib/explorer/date-range';
import { resolveRange, todayIn } from '@/lib/explorer/range/rolling';
import { exportFileName } from '@/lib/export/file-name';
import { getConfig } from '@/lib/server/config';
import { claimDueReports, runReport } from '@/lib/server/reports/report-runner';
import { settingsStore } from '@/lib/server/settings';
import { bffForFile, call, json, PEOPLE, signIn } from '../../helpers/bff';
import { startMailServer, type MailServer } from '../../helpers/mail-server';
import { tokenFor, walkV2 } from '../../helpers/sandbox';

/**
 * A scheduled report on a server with a Chromium (PDF_CHROMIUM_PATH): the printed report goes with the workbook,
 * read back with poppler's pdftotext and checked against the sandbox's own batches; a Chromium that cannot start
 * costs the PDF, never the e-mail.
 */
const SMTP_PORT = 4967;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const sandbox = bffForFile({
  SIGNIN_ATTEMPTS_PER_IP: '100000',
  SMTP_URL: `smtp://alerts:mail-secret-pass@127.0.0.1:${SMTP_PORT}`,
  APP_ORIGIN: 'http://app.test',
  PDF_CHROMIUM_PATH: CHROMIUM,
});

let mail: MailServer;
const dir = mkdtempSync(join(tmpdir(), 'tsb-pdf-'));
beforeAll(async () => {
  mail = await startMailServer({ port: SMTP_PORT });
});
afterAll(async () => {
  await mail.close();
  rmSync(dir, { recursive: true, force: true });
});

const EDITOR = PEOPLE.demo.editor;
/** A morning on the last day of the sandbox's data (tests/helpers/sandbox.ts anchors it at 1 June 2026). */
const SANDBOX_DAY = Date.parse('2026-05-31T05:30:00Z');
const WEEKLY = { cadence: 'weekly', weekday: 1, time: '07:30', timeZone: 'Europe/Berlin', recipients: [EDITOR.email] };

/** A saved view sent weekly in `language`, made due at the sandbox's day and run there; its e-mail as received. */
async function reportOf(name: string, query: string, language: string) {
  const editor = await signIn(EDITOR);
  const made = await call(views.POST, '/api/settings/views', editor, 'POST', { name, query, shared: true });
  const { id } = await json<{ id: string }>(made);
  expect(
    (await call(schedule.PUT, `/api/settings/views/${id}/schedule`, editor, 'PUT', { ...WEEKLY, language })).status,
  ).toBe(200);
  await settingsStore()
    .db.updateTable('report_schedules')
    .set({ next_run_at: new Date(SANDBOX_DAY - 60_000) })
    .where('view_id', '=', id)
    .execute();
  const already = mail.received.length;
  expect(await claimDueReports(SANDBOX_DAY, async (report) => void (await runReport(report, SANDBOX_DAY)))).toBe(1);
  const message = (await mail.waitFor(already + 1))[already]!.mail;
  const after = await json<ReportSchedule>(await call(schedule.GET, `/api/settings/views/${id}/schedule`, editor));
  return { message, after };
}

/** The PDF's text page by page, as poppler's pdftotext lays it out. */
function pdfPages(content: Buffer, name: string): string[] {
  const file = join(dir, name);
  writeFileSync(file, content);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return text.split('\f').filter((p) => p.trim() !== '');
}

describe('a scheduled report where the server has a Chromium', () => {
  it('attaches the printed report: the view’s head, the summary and every batch of the view in its order', async () => {
    const query = 'from=now-30d&to=now&tz=Europe/Berlin&sort=batch_name&dir=asc&hide=comment,images,analysis';
    const { message, after } = await reportOf('Printed by name', query, 'en');
    const days = resolveRange('now-30d', 'now', todayIn('Europe/Berlin', SANDBOX_DAY));
    const range = rangeToQuery(days.from, days.to, 'Europe/Berlin');
    const { batches } = await walkV2(sandbox(), await tokenFor(sandbox()), {
      start_date: range.start_date!,
      end_date: range.end_date!,
    });
    const names = (batches as unknown as { batch_name: string }[])
      .map((b) => b.batch_name)
      .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
    expect(names.length).toBeGreaterThan(10);

    expect(message.attachments.map((a) => a.contentType)).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/pdf',
    ]);
    const pdf = message.attachments[1]!;
    expect(pdf.filename).toBe(exportFileName({ organisation: EDITOR.orgName, from: days.from, to: days.to }, 'pdf'));
    expect(pdf.filename).toMatch(/-batches-2026-05-02-to-2026-05-31-report\.pdf$/);
    expect(pdf.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(message.text).toContain(`The printed report is attached as a PDF (${pdf.filename}).`);
    expect(message.text).not.toContain('available from the link');
    expect(after.lastResult).toMatch(/^sent to 1 of 1 recipients/);

    const pages = pdfPages(pdf.content, 'en.pdf');
    const first = pages[0]!;
    expect(first).toContain('Batch report');
    expect(first).toContain('Printed by name');
    expect(first).toContain(EDITOR.orgName);
    expect(first).toMatch(/Time zone\s+Europe\/Berlin/);
    expect(first).toMatch(/Range\s+May 2\s*–\s*31, 2026/);
    expect(first).toContain('Sorted by Batch (ascending)');
    expect(first).toContain('Columns not shown: Images, Analysis, Comment');
    expect(first).toMatch(/Made\s+May 31, 2026, 7:30 AM \(Europe\/Berlin\)/);
    expect(first).toMatch(
      /Batches\s+Germination \(weighted\)\s+Usable seedlings \(weighted\)\s+Below target\n\s+159\s/,
    );
    expect(first).toContain(
      `${names.length.toLocaleString('en')} batches in this view, ${names.length.toLocaleString('en')} printed`,
    );
    // Every page numbered of all, as the page's printed report is.
    pages.forEach((p, i) => expect(p, `page ${i + 1}`).toMatch(new RegExp(`\\b${i + 1} ?/ ?${pages.length}\\s*$`)));
    // Each batch once, on one line, numbered in the view's order (a name too long for its column ends in "…").
    const rows = [
      ...pages.join('\n').matchAll(/^\s*(\d+) (\w{3} \d{1,2}, 2026, \d{1,2}:\d{2} [AP]M)\s{2,}(.+?)\s{2,}/gm),
    ];
    expect(rows.map((m) => Number(m[1]))).toEqual(names.map((_, i) => i + 1));
    // (pdftotext may close the gap to the crop up to one space.)
    const starts = (cell: string, name: string) =>
      cell.includes('…')
        ? name.startsWith(cell.slice(0, cell.indexOf('…')))
        : cell === name || cell.startsWith(`${name} `);
    rows.forEach((m, i) => expect(starts(m[3]!, names[i]!), `row ${i + 1}: ${m[3]} / ${names[i]}`).toBe(true));
  });

  it('prints in the schedule’s language', async () => {
    const { message } = await reportOf('Gedruckt', 'from=now-7d&to=now&tz=Europe/Berlin&below=1', 'de');
    const pdf = message.attachments.find((a) => a.contentType === 'application/pdf')!;
    expect(message.text).toContain('Der gedruckte Bericht ist als PDF angehängt');
    const first = pdfPages(pdf.content, 'de.pdf')[0]!;
    expect(first).toContain('Chargenbericht');
    expect(first).toContain('Zeitzone');
    expect(first).toContain('Unter Sollwert');
  });

  it('goes without the PDF, saying where it is made, when the Chromium cannot print', async () => {
    const reports = getConfig().reports;
    const chromium = reports.pdfChromium;
    // An executable that is not a Chromium: the launch fails.
    reports.pdfChromium = '/bin/false';
    try {
      const { message, after } = await reportOf('No printer', 'from=now-7d&to=now&tz=UTC', 'en');
      expect(message.attachments.map((a) => a.contentType)).toEqual([
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ]);
      expect(message.text).toContain('The printed report (PDF) is available from the link');
      expect(after.lastResult).toMatch(/^sent to 1 of 1 recipients, \d+ batches; the PDF could not be printed$/);
    } finally {
      reports.pdfChromium = chromium;
    }
  });
});

it('refuses a PDF_CHROMIUM_PATH that is not an executable, naming the variable', async () => {
  const { loadConfigForTest } = await import('@/lib/server/config');
  const file = join(dir, 'not-executable');
  writeFileSync(file, 'text');
  expect(() => loadConfigForTest({ ...process.env, PDF_CHROMIUM_PATH: file })).toThrow(
    /^Invalid configuration: PDF_CHROMIUM_PATH must be the path of an executable Chromium/,
  );
  expect(() => loadConfigForTest({ ...process.env, PDF_CHROMIUM_PATH: join(dir, 'missing') })).toThrow(
    /PDF_CHROMIUM_PATH/,
  );
  expect(readFileSync(file, 'utf8')).toBe('text');
});
