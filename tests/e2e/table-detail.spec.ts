import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { APP_URL, DEMO, api, openSignedIn, sandbox, signIn, status, walkApi } from './support';

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

/** Axe's findings, one line each, so a failure names the rule and the element. */
const axeViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`,
  );

/** The batch names of the table's rows in its order (all 22 edge cases are in the DOM: fewer than a screen plus overscan). */
const tableNames = (page: Page) =>
  page
    .locator('tbody tr[data-index]')
    .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).querySelectorAll('td')[1]!.textContent!));

test('the detail opens from a row by keyboard, speaks with units, steps in the table order and has its own link', async ({
  page,
}) => {
  await openSignedIn(page, '/batches');
  await expect(status(page)).toHaveText('22 batches');
  const batch = page.getByRole('region', { name: 'Batches table' }).getByRole('columnheader', { name: /Batch/ });
  await batch.getByRole('button').click();
  await expect(batch).toHaveAttribute('aria-sort', 'ascending');
  const names = await tableNames(page);
  expect(names).toHaveLength(22);

  // Tab (from the sort button just used) to the table's rows: one Tab stop, whatever the rows hold.
  for (let i = 0; i < 20 && !(await page.evaluate(() => document.activeElement?.tagName === 'TR')); i++)
    await page.keyboard.press('Tab');
  await expect(page.locator('tbody tr:focus')).toHaveAttribute('aria-rowindex', '2');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('tbody tr:focus')).toHaveAttribute('aria-rowindex', '3');
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog');
  const title = dialog.getByRole('heading', { level: 2 });
  await expect(title).toHaveText(names[1]!);
  const rate = dialog.locator('section dt', { hasText: /^Germination rate$/ }).locator('+ dd');
  await expect(rate).toHaveText(/^(\d+\.\d{2}%|—)$/);
  await expect(dialog.locator('section dt', { hasText: /^Median seedling size$/ }).locator('+ dd')).toHaveText(
    /^(\d+\.\d{2} mm²|—)$/,
  );
  await expect(
    dialog.getByText(/^(Below|Meets) the .* germination target of 90%$|^No germination rate recorded/),
  ).toBeVisible();
  await dialog.getByText('API field names').click();
  expect(await axeViolations(page)).toEqual([]);

  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(title).toHaveText(names[2]!);
  await dialog.getByRole('button', { name: 'Previous' }).click();
  await dialog.getByRole('button', { name: 'Previous' }).click();
  await expect(title).toHaveText(names[0]!);
  await expect(dialog.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(title).toHaveText(names[3]!);
  await page.keyboard.press('ArrowLeft');
  await expect(title).toHaveText(names[2]!);

  // The dialog's own link: batch=<id>, and the same link opens the same batch after a reload.
  const id = (await dialog
    .locator('section dt', { hasText: /^Batch ID$/ })
    .locator('+ dd')
    .textContent())!;
  await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toBe(id);
  await page.reload();
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(names[2]!);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]batch=/);
  await expect(page).toHaveURL(/sort=batch_name&dir=asc/);
});

test('a batch link outside the loaded range says so once the range has loaded', async ({ page }) => {
  await openSignedIn(page, '/batches?from=2025-01-01&to=2025-01-01&tz=utc&batch=no-such-batch');
  await expect(status(page)).toHaveText('3 batches');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Batch not in this range');
  await expect(dialog).toContainText('no-such-batch');
});

test('the table judges each row: a Target column and an Off target badge in words', async ({ page }) => {
  await openSignedIn(page, '/batches?target=95&sort=target');
  await expect(status(page)).toHaveText('22 batches');
  await expect(
    page.getByRole('region', { name: 'Batches table' }).getByRole('columnheader', { name: /Target/ }),
  ).toHaveAttribute('aria-sort', 'descending');
  const targetCells = page.locator('tbody tr[data-index] td:nth-child(5)');
  await expect(targetCells.first()).toHaveText('95.0%');
  await expect(
    page.getByRole('region', { name: 'Batches table' }).getByRole('columnheader', { name: /Off target/ }),
  ).toBeVisible();
  // The Off target column names them (here only germination has a target).
  const badges = page.locator('tbody tr[data-index] td:nth-child(6)');
  await expect(badges.getByText('germination', { exact: true }).first()).toBeVisible();
  // Nothing of a header or of a Created date is cut: whatever the sort, at 768 px too.
  for (const width of [1366, 768]) {
    await page.setViewportSize({ width, height: 900 });
    const cut = await page
      .locator('thead th, tbody td:first-child')
      .evaluateAll((cells) =>
        cells
          .filter(
            (c) =>
              c.scrollWidth > c.clientWidth ||
              [...c.querySelectorAll('button')].some((b) => b.scrollWidth > b.clientWidth),
          )
          .map((c) => c.textContent),
      );
    expect(cut, `${width} px`).toEqual([]);
  }
  // Exactly the rows the Below target filter keeps carry the badge.
  const marked = await badges.getByText('germination', { exact: true }).count();
  await page.getByLabel('Below target').click();
  await expect(status(page)).toHaveText(`${marked} batches`);
});

test('the Columns menu closes on Escape (focus back on Columns) and on a click outside', async ({ page }) => {
  await openSignedIn(page, '/batches');
  await expect(status(page)).toHaveText('22 batches');
  const summary = page.locator('summary', { hasText: 'Columns' });
  const menu = page.getByRole('checkbox', { name: 'Show the Crop column' });
  await summary.click();
  await expect(menu).toBeVisible();
  await menu.focus();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(summary).toBeFocused();
  await summary.click();
  await expect(menu).toBeVisible();
  await page.getByRole('heading', { name: 'Batches', level: 1 }).click();
  await expect(menu).toBeHidden();
});

test('Search finds a batch by two of its words in reverse order', async ({ page }) => {
  const { batches } = await walkApi(await signIn(DEMO));
  const text = (b: Record<string, unknown>) =>
    ['batch_name', 'crop_type', 'comment', 'scanned_by_email']
      .map((k) => b[k] ?? '')
      .join('\n')
      .toLowerCase();
  // A real name of at least three words; its first and last, typed the other way round.
  const chosen = batches.find((b) => String(b.batch_name).split(/\s+/).length >= 3)!;
  const words = String(chosen.batch_name).split(/\s+/);
  const query = `${words.at(-1)} ${words[0]!.toUpperCase()}`;
  const expected = batches.filter(
    (b) => text(b).includes(words.at(-1)!.toLowerCase()) && text(b).includes(words[0]!.toLowerCase()),
  ).length;
  expect(expected).toBeLessThan(batches.length);

  await openSignedIn(page, '/batches', DEMO);
  await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
  // Each text is let reach the URL before the next: a URL update that lands after newer typing puts the older
  // text back in the box (use-search-text.ts, a known race outside this spec's subject).
  const search = async (text: string) => {
    await page.getByLabel('Search').fill(text);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(text);
  };
  await search(query);
  await expect(status(page)).toHaveText(`${expected.toLocaleString('en')} batch${expected === 1 ? '' : 'es'}`);
  await search(`${query} zzz-nowhere`);
  await expect(page.getByRole('heading', { name: 'No batches match these filters' })).toBeVisible();
  await search(String(chosen.batch_name).split(/\s+/).reverse().join(' '));
  await expect(page.getByRole('button', { name: String(chosen.batch_name), exact: true })).toBeVisible();
});

test('sign-in with empty fields says what to enter, next to each field, and posts nothing', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/session') && r.method() === 'POST') posts.push(r.url());
  });
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const id = page.getByLabel('Email');
  const secret = page.getByLabel('Password');
  await expect(id).toHaveAccessibleDescription('Enter your e-mail address.');
  await expect(secret).toHaveAccessibleDescription('Enter your password.');
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expect(id).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await id.fill('someone@edge.example');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(secret).toBeFocused();
  await expect(page.getByText('Enter your e-mail address.')).toBeHidden();
  await expect(page.getByText('Enter your password.')).toBeVisible();
  expect(posts).toEqual([]);

  // The server says the same in a sentence, still naming the field first for API clients.
  const response = await api('/api/session', {
    method: 'POST',
    json: { email: '', password: 'x' },
    headers: { origin: APP_URL },
  });
  expect([response.status, (await response.json()).detail]).toEqual([
    422,
    'email: the e-mail address is empty; enter your e-mail address',
  ]);
});
