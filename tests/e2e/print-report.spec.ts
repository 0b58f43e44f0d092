import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { DEFAULT_TARGETS } from '../../lib/contract';
import { batchesOn, daysAgo, resetTargets } from './analysis-figures';
import { signInContext } from './signed-in';
import { api, APP_URL, DEMO, escapeRegExp, sandbox, signIn, status } from './support';

/*
 * The printed report, as Chromium prints it to PDF and as poppler-utils (Debian) reads it back: its parts, the
 * 2,000-row cap, page numbers and the time it was made in the margins, no controls, and light pages whatever
 * the screen's theme. Page images are left in the test's output directory for a person to look at.
 */

const CAP = 2000;
/** Words of the page's controls, none of which may reach paper. */
const CONTROLS = ['Print report', 'Sign out', 'Export CSV', 'Export grouped CSV', 'Show as table', 'Save view', 'Saved views', 'Last 30 days', 'Remove all', 'Skip the table', 'Retry'];
const DOMAIN = 'greenfield-seeds.example';
const count = (n: number) => n.toLocaleString('en');
const day = (d: string) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(Date.parse(`${d}T00:00:00Z`));
/** `21 Feb 2025 – 22 Nov 2026`, whatever spaces the browser's ICU puts around the dash. */
const days = (from: string, to: string) => new RegExp(`${day(from)}\\s*–\\s*${day(to)}`);
const minute = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(ms);

type Printed = { text: string; pages: string[]; file: string };

/**
 * The printed table's rows: the lines that begin with the next row number (1, 2, … in order; a wrapped cell's
 * second line never does), from the table's first line to its end.
 */
function tableRows(text: string): string[] {
  const rows: string[] = [];
  for (const line of text.slice(text.indexOf('batches in this view')).split('\n')) {
    const n = /^\s*([\d,]+)\s/.exec(line)?.[1];
    if (n !== undefined && Number(n.replaceAll(',', '')) === rows.length + 1) rows.push(line);
  }
  return rows;
}

/** Prints the page to an A4 PDF in the test's output directory and reads it back with pdftotext -layout. */
async function printToPdf(page: Page, info: TestInfo, name: string): Promise<Printed> {
  const file = info.outputPath(`${name}.pdf`);
  writeFileSync(file, await page.pdf({ format: 'A4', preferCSSPageSize: true }));
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { text, pages: text.split('\f').filter((p) => p.trim() !== ''), file };
}

/** Mean brightness (0 black – 255 white) of PDF page `n`, from a small grey rendering (pdftoppm's PGM). */
function brightness(file: string, n: number, info: TestInfo): number {
  const stem = info.outputPath(`page-${n}`);
  execFileSync('pdftoppm', ['-gray', '-r', '20', '-f', String(n), '-l', String(n), '-singlefile', file, stem]);
  const pgm = readFileSync(`${stem}.pgm`);
  // P5 <width> <height> 255, one byte per pixel after the header's fourth token.
  const header = pgm.subarray(0, 40).toString('latin1').split(/\s+/);
  const start = pgm.length - Number(header[1]) * Number(header[2]);
  let sum = 0;
  for (let i = start; i < pgm.length; i++) sum += pgm[i]!;
  return sum / (pgm.length - start);
}

/** The summary cards as the screen shows them: each card's value with its change. */
async function cardsOnScreen(page: Page): Promise<string[]> {
  return page.getByRole('region', { name: 'Summary' }).locator('dd').allInnerTexts();
}

/** Replaces window.print with a counter: the test prints with page.pdf(), as a person would from the dialog. */
async function countPrints(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { printCalls: number }).printCalls = 0;
    window.print = () => {
      (window as unknown as { printCalls: number }).printCalls++;
    };
  });
}
const printCalls = (page: Page) => page.evaluate(() => (window as unknown as { printCalls: number }).printCalls);

function expectNoControls(text: string) {
  for (const word of CONTROLS) expect(text, `control "${word}" on paper`).not.toContain(word);
}

function expectPageNumbers(pages: string[]) {
  expect(pages.length).toBeGreaterThan(1);
  // pdftotext may close up the spaces around the slash.
  pages.forEach((p, i) => expect(p, `page ${i + 1}`).toMatch(new RegExp(`\\b${i + 1} ?/ ?${pages.length}\\s*$`)));
}

// British English: the report's dates and numbers as the expectations below write them.
test.use({ locale: 'en-GB' });

test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
});
test.afterAll(resetTargets);

test('Print report: the view as a report, the table cut at 2,000 rows with the rest named, numbered pages', async ({ page, context }, info) => {
  test.setTimeout(120_000);
  const cookie = await signInContext(context);
  // Targets of the organisation, a crop of its own among them: the report names those in force.
  const targets = { general: { ...DEFAULT_TARGETS.general, usable: 80 }, crops: { Lettuce: { germination: 85, usable: null, cv: 30 } } };
  const saved = await api('/api/settings/targets', { method: 'PUT', cookie: await signIn(), json: { targets }, headers: { origin: APP_URL } });
  expect(saved.status).toBe(200);

  const FROM = daysAgo(640), TO = daysAgo(1);
  const shown = (await batchesOn(cookie, FROM, TO)).filter((b) => String(b.scanned_by_email ?? '').includes(DOMAIN));
  expect(shown.length).toBeGreaterThan(CAP);
  await countPrints(page);
  await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}&q=${DOMAIN}&compare=previous&group=crop&hide=comment`);
  await expect(status(page)).toHaveText(`${count(shown.length)} batches`, { timeout: 30_000 });
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText('(previous period): rates in percentage points', { timeout: 30_000 });
  const cards = await cardsOnScreen(page);
  const comparison = (await summary.getByText('Changes against').innerText()).replace(/^Changes against (.*): rates.*$/, '$1');
  const firstDate = await page.getByRole('region', { name: 'Batches table' }).getByRole('row').nth(1).getByRole('cell').first().innerText();

  const before = Date.now();
  await page.getByRole('button', { name: 'Print report' }).click();
  await expect.poll(() => printCalls(page), { timeout: 20_000 }).toBe(1);
  const after = Date.now();
  const { text, pages, file } = await printToPdf(page, info, 'report');

  // The head: title, whose, which days in which zone, the filters, the targets, the comparison, when.
  expect(text).toContain('Batch report');
  expect(text).toMatch(new RegExp(`Organisation\\s+${escapeRegExp(DEMO.orgName)}`));
  expect(text).toMatch(days(FROM, TO));
  expect(text).toMatch(/Time zone\s+UTC/);
  expect(text).toContain(`Search “${DOMAIN}”`);
  expect(text).toContain('Columns not shown: Comment');
  expect(text).toContain('General: germination 90.0%, usable seedlings 80.0%, CV threshold none');
  expect(text).toContain('Lettuce: germination 85.0%, usable seedlings none, CV threshold 30.0%');
  expect(text).toMatch(new RegExp(`Compared with\\s+${escapeRegExp(comparison)}`));
  const made = [minute(before), minute(after)].map((m) => `${m} UTC`);
  expect(text).toMatch(new RegExp(`Made\\s+(${made.map(escapeRegExp).join('|')})`));

  // The summary cards as on screen (value and change).
  // (A narrow card may wrap its change before the earlier value in brackets.)
  for (const card of cards) for (const part of card.split(/\n| (?=\()/).filter(Boolean)) expect(text).toContain(part.trim());
  // Every chart, by its heading, and the grouped summary with a row per crop.
  for (const heading of ['Germination rate over time', 'Distribution of germination rates', 'Germination rate per crop', 'Control chart: Germination rate', 'Germination vs uniformity']) {
    expect(text, heading).toContain(heading);
  }
  expect(text).toContain('Grouped summary');
  expect(text).toMatch(/\n\s*Lettuce\s+[\d,]+\s+[\d.]+%/);

  // The batches: exactly 2,000 rows, the screen's first row first, then how many more and where to get them.
  expect(text).toContain(`${count(shown.length)} batches in this view, ${count(CAP)} printed`);
  const rows = tableRows(text);
  expect(rows).toHaveLength(CAP);
  // The screen's first row first (its creation time begins the printed row; a long one wraps after the day).
  expect(rows[0]).toContain(firstDate.split(',')[0]!);
  expect(text).toContain(`${count(shown.length - CAP)} more batches are not printed: use Export to get all of them.`);
  expect(text.indexOf('more batches are not printed')).toBeGreaterThan(text.indexOf(rows.at(-1)!));

  // The margins: the report's name and when it was made, and "n / N" on every page.
  expectPageNumbers(pages);
  for (const p of pages) expect(p).toMatch(new RegExp(`Tray-scan batch report · ${escapeRegExp(DEMO.orgName)} · made (${made.map(escapeRegExp).join('|')})`));
  expectNoControls(text);
  expect(text.match(/Export/g)).toHaveLength(1); // the line about the rows not printed
  for (const n of [1, 2, pages.length]) expect(brightness(file, n, info)).toBeGreaterThan(225);

  // After the print the page is the page again: no print-only table left in it.
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await expect(page.locator('[aria-label="Batches"]')).toHaveCount(0);
});

test.describe('a dark screen', () => {
  test.use({ colorScheme: 'dark' });

  test('the browser’s own print (no button): every row under the cap, every chart, light pages', async ({ page, context }, info) => {
    test.setTimeout(90_000);
    const cookie = await signInContext(context);
    const FROM = daysAgo(120), TO = daysAgo(91);
    const lettuce = (await batchesOn(cookie, FROM, TO)).filter((b) => b.crop_type === 'Lettuce');
    expect(lettuce.length).toBeGreaterThan(0);
    await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}&crop=Lettuce`);
    await expect(status(page)).toHaveText(`${count(lettuce.length)} batches`, { timeout: 30_000 });
    // The screen is dark; the charts are below the fold and not drawn yet; their code arrives in an idle moment.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(18, 21, 19)');
    await page.waitForLoadState('networkidle');
    // As a print dialog does: the page switches to print media (the report renders at once), then is printed.
    await page.emulateMedia({ media: 'print' });
    const { text, pages, file } = await printToPdf(page, info, 'dark-screen');

    expect(text).toContain('Batch report');
    expect(text).toContain('Crop: Lettuce');
    for (const heading of ['Germination rate over time', 'Distribution of germination rates', 'Germination rate per crop', 'Control chart: Germination rate', 'Germination vs uniformity']) {
      expect(text, heading).toContain(heading);
    }
    expect(tableRows(text)).toHaveLength(lettuce.length);
    expect(text).not.toContain('more batches are not printed');
    expect(text).not.toContain('Compared with');
    expectPageNumbers(pages);
    expectNoControls(text);
    for (let n = 1; n <= pages.length; n++) expect(brightness(file, n, info), `page ${n}`).toBeGreaterThan(225);
  });
});
