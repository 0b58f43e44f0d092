import 'server-only';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../print/chromium-flags';
import { escapeHtml } from '../notify/mail-layout';

/** Longest a report's PDF may take from Chromium's start to its last page; then the e-mail goes without it. */
const PRINT_TIMEOUT_MS = 60_000;

/** What the page's margin boxes say: the report's line on the left, the page of pages on the right. */
export type PdfFooter = { text: string; page: (n: string, of: string) => string };

/**
 * Prints a self-contained HTML document to PDF with the Chromium at `executable`: A4 landscape unless the
 * document's own `@page` says otherwise, its backgrounds (the marks' colours), the footer on every page. The
 * page may load nothing from anywhere (every request is refused), and the browser is closed whatever happens.
 */
export async function printPdf(
  executable: string,
  html: string,
  footer: PdfFooter,
  timeoutMs = PRINT_TIMEOUT_MS,
): Promise<Buffer> {
  const browser = await chromium.launch({ executablePath: executable, args: CHROMIUM_ARGS, timeout: timeoutMs });
  const timer = setTimeout(() => void browser.close(), timeoutMs);
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
    const pageNumbers = footer.page('<span class="pageNumber"></span>', '<span class="totalPages"></span>');
    return await page.pdf({
      format: 'A4',
      landscape: true,
      preferCSSPageSize: true,
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: `<div style="font:7pt system-ui,sans-serif;color:#555;width:100%;padding:0 8mm;display:flex;justify-content:space-between"><span>${escapeHtml(footer.text)}</span><span>${pageNumbers}</span></div>`,
      margin: { top: '10mm', bottom: '12mm', left: '8mm', right: '8mm' },
    });
  } finally {
    clearTimeout(timer);
    await browser.close().catch(() => undefined);
  }
}
