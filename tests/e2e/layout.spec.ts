import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInContext } from './signed-in';
import { DEMO, sandbox, signIn, status, walkApi } from './support';

/** The page's own size against what is on it: sideways scroll, and height beyond the body's content. */
const pageSize = (page: Page) =>
  page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
    height: document.documentElement.scrollHeight,
    content: Math.ceil(document.body.getBoundingClientRect().bottom + window.scrollY),
  }));

async function expectNoOverflow(page: Page, what: string) {
  const size = await pageSize(page);
  expect(size.width, `${what}: page width`).toBeLessThanOrEqual(size.viewport);
  expect(size.height, `${what}: page height`).toBeLessThanOrEqual(size.content + 1);
}

const table = (page: Page) => page.getByRole('region', { name: 'Batches table' });
const xOf = async (cell: Locator) => (await cell.boundingBox())!.x;

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

for (const width of [768, 1366]) {
  test(`at ${width} px with every panel open: no sideways page scroll, and no page below the last element after the table scrolled`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await signInContext(context);
    const page = await context.newPage();
    // A usable-seedling target most batches miss: every row has its below-target mark (with text for screen readers).
    await page.goto(`/batches?tz=UTC&targets=${encodeURIComponent('*:90/97/20')}&group=crop&compare=previous`);
    await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Targets', exact: true }).click();
    await page.getByRole('button', { name: 'Saved views', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Targets' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Grouped summary' })).toBeVisible();
    await expectNoOverflow(page, 'panels open');

    // Down the table and sideways: rows deep in it are drawn.
    await table(page).evaluate((box) => {
      box.scrollTop = box.scrollHeight / 2;
      box.scrollLeft = 400;
    });
    await expect(table(page).locator('tr[data-index="1500"]')).toBeAttached();
    await expect(table(page).locator('tr[data-index="1500"]')).toContainText(/\d/);

    // Every chart drawn, each as a table too.
    await page.locator('#charts').scrollIntoViewIfNeeded();
    await expect(
      page.getByRole('region', { name: 'Germination vs uniformity' }).locator('[data-mark]').first(),
    ).toBeVisible({ timeout: 30_000 });
    for (const button of await page.getByRole('button', { name: 'Show as table' }).all()) await button.click();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expectNoOverflow(page, 'table scrolled, charts drawn');

    // The popup menus of the filter bar stay on the page too.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('summary', { hasText: 'Columns' }).click();
    await expect(page.getByRole('checkbox', { name: 'Show the Comment column' })).toBeVisible();
    await expectNoOverflow(page, 'Columns menu open');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect(page.getByRole('menu', { name: 'Export' })).toBeVisible();
    await expectNoOverflow(page, 'Export menu open');
    await context.close();
  });
}

test('the Batch column stays at the table’s left edge while it scrolls sideways', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 768, height: 900 } });
  await signInContext(context);
  const page = await context.newPage();
  await page.goto('/batches?tz=UTC');
  await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
  const box = table(page);
  const row = box.getByRole('row').nth(1);
  const batch = row.getByRole('cell').nth(1);
  const crop = row.getByRole('cell').nth(2);
  const header = box.getByRole('columnheader', { name: 'Batch' });
  await box.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const left = (await box.boundingBox())!.x;
  const cropAtStart = await xOf(crop);

  await box.evaluate((el) => (el.scrollLeft = 400));
  await expect.poll(() => xOf(crop)).toBeCloseTo(cropAtStart - 400, 0);
  const stuck = await xOf(batch);
  expect(stuck).toBeCloseTo(left + 1, 0); // inside the box's border
  expect(await xOf(header)).toBeCloseTo(stuck, 0);

  await box.evaluate((el) => (el.scrollLeft = 1400));
  await expect.poll(() => xOf(crop)).toBeCloseTo(cropAtStart - 1400, 0);
  expect(await xOf(batch)).toBeCloseTo(stuck, 0);
  expect(await xOf(header)).toBeCloseTo(stuck, 0);
  // On top of the cells passing under it: what is seen there is the batch's name.
  const seen = await batch.evaluate((cell) => {
    const r = cell.getBoundingClientRect();
    return cell.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
  expect(seen).toBe(true);
  await context.close();
});

test('the Warnings column says what the warning is, cut to the column and whole on hover, focus and in the detail', async ({
  page,
  context,
}) => {
  const { batches } = await walkApi(await signIn(DEMO));
  const warned = batches.filter((b) => b.warnings === true && typeof b.comment === 'string' && b.comment.length > 30);
  const bare = batches.find((b) => b.warnings === true && b.comment === null)!;
  const one = warned.sort((a, b) => (b.comment as string).length - (a.comment as string).length)[0]!;
  const comment = one.comment as string;

  await signInContext(context);
  // Names repeat now and then: the search finds the batch by its name and its comment's words.
  await page.goto(`/batches?tz=UTC&warn=1&q=${encodeURIComponent(`${one.batch_name as string} ${comment}`)}`);
  await expect(status(page)).toHaveText(/^\d+ batch(es)?$/, { timeout: 20_000 });
  const headers = await table(page).getByRole('columnheader').allTextContents();
  const column = headers.findIndex((h) => h.startsWith('Warnings'));
  const row = table(page)
    .getByRole('row')
    .filter({ hasText: one.batch_name as string })
    .first();
  const cell = row.getByRole('cell').nth(column);
  await expect(cell).toHaveText(`Warning ${comment}`.replace(/\s+/g, ' '), { useInnerText: true });
  await expect(cell).toHaveAttribute('title', comment);
  const cut = (c: Locator) => c.locator('div').evaluate((d) => d.scrollWidth > d.clientWidth);
  expect(await cut(cell)).toBe(true);

  // The focused row unfolds the text; Enter opens the detail, which has it whole.
  await row.focus();
  await expect.poll(() => cut(cell)).toBe(false);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Yes — this scan raised a warning');
  await expect(dialog).toContainText(comment.replace(/\s+/g, ' '));
  await page.keyboard.press('Escape');
  // The closed dialog's own history step first: a navigation during it is aborted.
  await expect(dialog).toHaveCount(0);
  await expect(page).not.toHaveURL(/[?&]batch=/);

  // A warning without a comment is the badge alone.
  await page.goto(`/batches?tz=UTC&warn=1&q=${encodeURIComponent(bare.batch_name as string)}`);
  await expect(status(page)).toHaveText(/^\d+ batch(es)?$/, { timeout: 20_000 });
  const bareRows = table(page)
    .getByRole('row')
    .filter({ hasText: bare.batch_name as string });
  await expect(bareRows.first()).toBeVisible();
  const bareCells = await bareRows.evaluateAll(
    (rows, at) =>
      rows.map((r) => ({
        text: (r.children[at] as HTMLElement).innerText,
        title: r.children[at]!.getAttribute('title'),
      })),
    column,
  );
  expect(bareCells).toContainEqual({ text: 'Warning', title: null });
});
