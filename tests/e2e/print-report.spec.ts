import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { DEFAULT_TARGETS, type Targets } from '../../lib/contract';
import { MESSAGES } from '../../lib/i18n/messages';
import { headerWords } from '../../lib/print/column-widths';
import { batchesOn, daysAgo, resetTargets } from './analysis-figures';
import { signInContext } from './signed-in';
import { readCsv } from '../helpers/csv';
import { api, APP_URL, DEMO, escapeRegExp, exportFrom, sandbox, signIn, status, type ApiBatch } from './support';

/*
 * The printed report, as Chromium prints it to PDF and as poppler-utils (Debian) reads it back: its parts, the
 * 2,000-row cap, page numbers and the time it was made in the margins, no controls, and light pages whatever
 * the screen's theme. Page images are left in the test's output directory for a person to look at.
 */

const CAP = 2000;
/** The charts' hints to a mouse, in every language: none may reach paper. */
const HINTS = /\b(click|drag|klicken|ziehen|klik|sleep)\b/i;
/** Words of the page's controls, none of which may reach paper. */
const CONTROLS = [
  'Print report',
  'Sign out',
  'Export CSV',
  'Export grouped CSV',
  'Show as table',
  'Save view',
  'Saved views',
  'Last 30 days',
  'Remove all',
  'Skip the table',
  'Retry',
];
const DOMAIN = 'greenfield-seeds.example';
const count = (n: number) => n.toLocaleString('en');
const day = (d: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    Date.parse(`${d}T00:00:00Z`),
  );
/** `21 Feb 2025 – 22 Nov 2026`, whatever spaces the browser's ICU puts around the dash. */
const days = (from: string, to: string) => new RegExp(`${day(from)}\\s*–\\s*${day(to)}`);
const minute = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(ms);

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
  expect(text.match(HINTS)?.[0], 'a hint to a mouse on paper').toBeUndefined();
}

/** A line of the printed table: it begins with its row number (`1,234` or `1.234`). */
const rowNumber = (line: string) => {
  const n = /^\s*(\d{1,3}(?:[.,]\d{3})*)\s/.exec(line)?.[1];
  return n === undefined ? null : Number(n.replace(/[.,]/g, ''));
};

/**
 * The table's pages as printed, from the one with its note (`note`: words of it) on: on each, its rows (the lines
 * that begin with the next row number) and the words of its header (the lines right above the first row, up to
 * a blank line or the note). Checks that every line from a page's first row to its footer is a row: no cell
 * wraps onto a second line.
 */
function tablePages(pages: string[], note: string): { rows: string[]; header: string[] }[] {
  const out: { rows: string[]; header: string[] }[] = [];
  let next = 1;
  const start = pages.findIndex((p) => p.includes(note));
  expect(start, `the table's note "${note}"`).toBeGreaterThanOrEqual(0);
  for (const [i, page] of pages.entries()) {
    if (i < start) continue;
    const lines = page.split('\n');
    const first = lines.findIndex((l) => rowNumber(l) === next);
    if (first < 0) continue;
    const header: string[] = [];
    // Headers hold no digit; the note above the table does.
    for (let k = first - 1; k >= 0 && lines[k]!.trim() !== '' && !/\d/.test(lines[k]!); k--)
      header.unshift(...lines[k]!.trim().split(/\s+/));
    const body = lines.slice(first).filter((l) => l.trim() !== '');
    const footer = body.pop()!; // the page margin's report name and page number
    expect(footer, `page ${i + 1}`).toMatch(/\d+ ?\/ ?\d+\s*$/);
    const rows: string[] = [];
    for (const line of body) {
      expect(rowNumber(line), `page ${i + 1}: a line that is not a row of its own: "${line}"`).toBe(next);
      rows.push(line);
      next++;
    }
    out.push({ rows, header });
  }
  return out;
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

test('Print report: the view as a report, the table cut at 2,000 rows with the rest named, numbered pages', async ({
  page,
  context,
}, info) => {
  test.setTimeout(120_000);
  const cookie = await signInContext(context);
  // Targets of the organisation, a crop of its own among them: the report names those in force.
  const targets = {
    general: { ...DEFAULT_TARGETS.general, usable: 80 },
    crops: { Lettuce: { germination: 85, usable: null, cv: 30 } },
  };
  const saved = await api('/api/settings/targets', {
    method: 'PUT',
    cookie: await signIn(),
    json: { targets },
    headers: { origin: APP_URL },
  });
  expect(saved.status).toBe(200);

  const FROM = daysAgo(640),
    TO = daysAgo(1);
  const shown = (await batchesOn(cookie, FROM, TO)).filter((b) => String(b.scanned_by_email ?? '').includes(DOMAIN));
  expect(shown.length).toBeGreaterThan(CAP);
  await countPrints(page);
  await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}&q=${DOMAIN}&compare=previous&group=crop&hide=comment`);
  await expect(status(page)).toHaveText(`${count(shown.length)} batches`, { timeout: 30_000 });
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText('(previous period): rates in percentage points', { timeout: 30_000 });
  const cards = await cardsOnScreen(page);
  const comparison = (await summary.getByText('Changes against').innerText()).replace(
    /^Changes against (.*): rates.*$/,
    '$1',
  );
  const firstDate = await page
    .getByRole('region', { name: 'Batches table' })
    .getByRole('row')
    .nth(1)
    .getByRole('cell')
    .first()
    .innerText();

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
  // Each crop's targets in force and where each comes from: Lettuce inherits the general usable target.
  // (A line may wrap on paper: compared with its spaces made one.)
  expect(text.replace(/\s+/g, ' ')).toContain(
    'Lettuce: germination 85.0% (own), usable seedlings 80.0% (general), CV threshold 30.0% (own)',
  );
  expect(text).toMatch(new RegExp(`Compared with\\s+${escapeRegExp(comparison)}`));
  const made = [minute(before), minute(after)].map((m) => `${m} UTC`);
  expect(text).toMatch(new RegExp(`Made\\s+(${made.map(escapeRegExp).join('|')})`));

  // The summary cards as on screen (value and change).
  // (A narrow card may wrap its change before the earlier value in brackets, and its count per kind of target
  // between the kinds.)
  for (const card of cards)
    for (const part of card.split(/\n| (?=\()| · /).filter(Boolean)) expect(text).toContain(part.trim());
  // Every chart, by its heading, and the grouped summary with a row per crop.
  for (const heading of [
    'Germination rate over time',
    'Distribution of germination rates',
    'Germination rate per crop',
    'Control chart: Germination rate',
    'Germination vs uniformity',
  ]) {
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
  for (const p of pages)
    expect(p).toMatch(
      new RegExp(`Tray-scan batch report · ${escapeRegExp(DEMO.orgName)} · made (${made.map(escapeRegExp).join('|')})`),
    );
  expectNoControls(text);
  expect(text.match(/Export/g)).toHaveLength(2); // the legend of texts cut short, the line about the rows not printed
  for (const n of [1, 2, pages.length]) expect(brightness(file, n, info)).toBeGreaterThan(225);

  // After the print the page is the page again: no print-only table left in it.
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await expect(page.locator('[aria-label="Batches"]')).toHaveCount(0);
});

/** Every column of the table, none hidden, in the reader's language: the widest print there is. */
for (const [locale, language] of [
  ['en-GB', 'en'],
  ['de-DE', 'de'],
] as const) {
  test.describe(`a ${locale} reader`, () => {
    test.use({ locale });

    test('the batch table on paper: all 16 columns, 30+ rows to a landscape page, each a line, headers whole, no hints', async ({
      page,
      context,
    }, info) => {
      test.setTimeout(120_000);
      const cookie = await signInContext(context);
      const FROM = daysAgo(75),
        TO = daysAgo(1);
      const shown = await batchesOn(cookie, FROM, TO);
      expect(shown.length).toBeGreaterThan(150);
      await countPrints(page);
      await page.goto(`/batches?tz=UTC&from=${FROM}&to=${TO}`);
      await expect(status(page)).toHaveText(new RegExp(`^${shown.length.toLocaleString(locale)} `), {
        timeout: 30_000,
      });
      // Print report waits until the report is drawn, then opens the print dialog (here: counted, then page.pdf).
      await page.getByRole('button', { name: MESSAGES[language].print.button }).click();
      await expect.poll(() => printCalls(page), { timeout: 20_000 }).toBe(1);
      const { text, pages, file } = await printToPdf(page, info, `table-${locale}`);

      const print = MESSAGES[language].print;
      const table = tablePages(pages, print.batchesCount.split('{shown}')[1]!.split(',')[0]!.trim());
      expect(table.flatMap((p) => p.rows)).toHaveLength(shown.length);
      expect(table.length).toBeGreaterThan(2);
      // Every page but the last holds at least 30 rows (the first one below the table's title and note too).
      for (const [i, p] of table.slice(0, -1).entries())
        expect(p.rows.length, `table page ${i + 1}`).toBeGreaterThanOrEqual(30);
      // Landscape pages: wider than tall.
      const size = execFileSync('pdfinfo', ['-f', String(pages.length), '-l', String(pages.length), file], {
        encoding: 'utf8',
      });
      const [, w, h] = /Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/.exec(size)!;
      expect(Number(w)).toBeGreaterThan(Number(h));

      // The header on every page: each column's words whole, no fragment of one (`Germinatio` `n`).
      const columns = MESSAGES[language].explorer.columns;
      const words = Object.values(columns).flatMap(headerWords);
      for (const [i, p] of table.entries()) {
        expect(
          p.header.filter((w) => !['#', '▲', '▼'].includes(w) && !words.includes(w)),
          `table page ${i + 1}: pieces of header words`,
        ).toEqual([]);
        expect(
          words.filter((w) => !p.header.includes(w)),
          `table page ${i + 1}: header words missing`,
        ).toEqual([]);
      }
      // Long names and e-mails are cut on one line with an ellipsis, which the legend explains.
      expect(text.replace(/\s+/g, ' ')).toContain(print.cutShort.replace(/\s+/g, ' '));
      expect(table[0]!.rows.filter((r) => r.includes('…')).length).toBeGreaterThan(10);
      expect(text.match(/greenfield-\s*\n/), 'an e-mail split across lines').toBeNull();
      // The default targets set germination alone: rates below it are marked ↓, no CV is judged, and the legend
      // names only the mark printed.
      const oneLine = text.replace(/\s+/g, ' ');
      expect(table[0]!.rows.some((r) => r.includes('↓'))).toBe(true);
      expect(oneLine).toContain(print.belowMark.replace('{mark}', '↓'));
      // (The control chart's label of a limit past the top edge, `UCL 101.6% ↑`, is the chart's own: rows only.)
      expect(table.flatMap((p) => p.rows).filter((r) => r.includes('↑'))).toEqual([]);
      expect(oneLine).not.toContain(print.aboveMark.replace('{mark}', '↑'));
      expectNoControls(text);
      for (const n of [1, pages.length])
        execFileSync('pdftoppm', [
          '-png',
          '-r',
          '70',
          '-f',
          String(n),
          '-l',
          String(n),
          file,
          info.outputPath(`table-${locale}-page`),
        ]);
    });
  });
}

test('the printed table judges by all three targets: Off target lists the kinds missed, each missed figure marked (↓ a rate, ↑ the CV)', async ({
  page,
  context,
}, info) => {
  test.setTimeout(90_000);
  const cookie = await signInContext(context);
  // Bell pepper inherits the general usable target and has a CV threshold of its own.
  const CROP = 'Bell pepper';
  const targets: Targets = {
    general: { germination: 82, usable: 80, cv: 30 },
    crops: { [CROP]: { germination: null, usable: null, cv: 25 } },
  };
  expect(
    (await api('/api/settings/targets', { method: 'PUT', cookie, json: { targets }, headers: { origin: APP_URL } }))
      .status,
  ).toBe(200);
  const FROM = daysAgo(120),
    TO = daysAgo(31);
  const byId = new Map(
    (await batchesOn(cookie, FROM, TO)).filter((b) => b.crop_type === CROP).map((b) => [b.batch_id, b]),
  );
  await countPrints(page);
  await page.goto(
    `/batches?tz=UTC&from=${FROM}&to=${TO}&crop=${encodeURIComponent(CROP)}&sort=batch_name&dir=asc&hide=comment,scanner,analysis`,
  );
  await expect(status(page)).toHaveText(`${count(byId.size)} batches`, { timeout: 30_000 });
  // The table's order, as its export writes it.
  const order = readCsv((await exportFrom(page, 'CSV (API fields)')).bytes.toString('utf8'))
    .slice(1)
    .map((r) => byId.get(r[0]!)!);
  expect(order).toHaveLength(byId.size);
  const missed = (b: ApiBatch) =>
    (['germination', 'usable', 'cv'] as const).filter((k) => {
      const figure = {
        germination: b.avg_germination_rate,
        usable: b.avg_usable_seedling_rate,
        cv: b.avg_coefficient_of_variation,
      }[k];
      const target = targets.crops[CROP]![k] ?? targets.general[k];
      return figure !== null && target !== null && (k === 'cv' ? Number(figure) > target : Number(figure) < target);
    });
  const expected = order.map(missed);
  // The data holds rows missing only their usable target and rows missing only their CV threshold.
  expect(expected.some((m) => m.length === 1 && m[0] === 'usable')).toBe(true);
  expect(expected.some((m) => m.length === 1 && m[0] === 'cv')).toBe(true);

  await page.getByRole('button', { name: 'Print report' }).click();
  await expect.poll(() => printCalls(page), { timeout: 20_000 }).toBe(1);
  const { text } = await printToPdf(page, info, 'off-target');
  const rows = tableRows(text);
  expect(rows).toHaveLength(order.length);
  const words = { germination: 'germination', usable: 'usable', cv: 'CV' };
  rows.forEach((row, i) => {
    const m = expected[i]!;
    const at = `row ${i + 1} (${order[i]!.batch_name})`;
    if (m.length) expect(row, at).toContain(m.map((k) => words[k]).join(', '));
    expect(row.match(/↓/g)?.length ?? 0, `${at}: ↓`).toBe(m.filter((k) => k !== 'cv').length);
    expect(row.match(/↑/g)?.length ?? 0, `${at}: ↑`).toBe(m.includes('cv') ? 1 : 0);
  });
  // The legend says what each mark means.
  expect(text).toContain('↓ below its crop’s target');
  expect(text).toContain('↑ above its crop’s CV threshold');
});

test.describe('a dark screen', () => {
  test.use({ colorScheme: 'dark' });

  test('the browser’s own print (no button): every row under the cap, every chart, light pages', async ({
    page,
    context,
  }, info) => {
    test.setTimeout(90_000);
    const cookie = await signInContext(context);
    const FROM = daysAgo(120),
      TO = daysAgo(91);
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
    for (const heading of [
      'Germination rate over time',
      'Distribution of germination rates',
      'Germination rate per crop',
      'Control chart: Germination rate',
      'Germination vs uniformity',
    ]) {
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
