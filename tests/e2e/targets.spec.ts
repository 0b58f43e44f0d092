import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_TARGETS, targetFor, type Targets } from '../../lib/contract';
import { signInContext } from './signed-in';
import { api, APP_URL, DEMO, escapeRegExp, OTHER, sandbox, signIn, walkApi, type Credentials } from './support';

const status = (page: Page) => page.getByRole('status').first();
/** The value of the summary card titled `title`. */
const card = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'Summary' })
    .locator('div', { has: page.getByText(title, { exact: true }) })
    .locator('dd');

async function putTargets(credentials: Credentials, targets: Targets) {
  const cookie = await signIn(credentials);
  const response = await api('/api/settings/targets', {
    method: 'PUT',
    cookie,
    json: { targets },
    headers: { origin: APP_URL },
  });
  expect(response.status).toBe(200);
}

/** How many of the organisation's batches are below their own crop's germination target. */
async function belowCount(targets: Targets): Promise<number> {
  const { batches } = await walkApi(await signIn(DEMO));
  return batches.filter((b) => {
    const rate = b.avg_germination_rate === null ? null : Number(b.avg_germination_rate);
    const target = targetFor(targets, b.crop_type as string | null, 'germination');
    return rate !== null && target !== null && rate < target;
  }).length;
}

// The targets are the organisations' own and outlive a test (other specs save some too): start from the
// defaults, and leave them so.
const resetTargets = () => putTargets(DEMO, DEFAULT_TARGETS);
test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
});
test.afterEach(resetTargets);

test('targets per crop: set in the panel, saved for the organisation, seen by a colleague and by no other organisation', async ({
  page,
  context,
  browser,
}) => {
  await signInContext(context);
  await page.goto('/batches?tz=UTC');
  await expect(status(page)).toHaveText('3,000 batches', { timeout: 20_000 });
  await expect(card(page, 'Below target')).toHaveText(
    new RegExp(`^${(await belowCount(DEFAULT_TARGETS)).toLocaleString('en')} \\(`),
  );

  await page.getByRole('button', { name: 'Targets' }).click();
  await expect(page.getByLabel('General germination target (%)')).toHaveValue('90');
  await expect(page.getByLabel('General usable target (%)')).toHaveValue('');
  await expect(page.getByLabel('General CV threshold (%)')).toHaveValue('');
  await page.getByLabel('Lettuce germination target (%)').fill('97');
  await page.getByLabel('Petunia germination target (%)').fill('70');
  const mine: Targets = {
    general: { germination: 90, usable: null, cv: null },
    crops: {
      Lettuce: { germination: 97, usable: null, cv: null },
      Petunia: { germination: 70, usable: null, cv: null },
    },
  };
  const expected = await belowCount(mine);
  expect(expected).not.toBe(await belowCount(DEFAULT_TARGETS));
  await expect(card(page, 'Below target')).toHaveText(new RegExp(`^${expected.toLocaleString('en')} \\(`));
  // Not saved yet: the link carries them, so a colleague opening it judges alike.
  await expect(page).toHaveURL(/targets=/);
  const link = page.url();

  const colleague = await browser.newContext();
  await signInContext(colleague);
  const theirs = await colleague.newPage();
  await theirs.goto(link);
  await expect(status(theirs)).toHaveText('3,000 batches', { timeout: 20_000 });
  await expect(card(theirs, 'Below target')).toHaveText(new RegExp(`^${expected.toLocaleString('en')} \\(`));

  // Saved: the link no longer needs them, and the colleague's plain page uses them.
  await page.getByRole('button', { name: 'Save targets' }).click();
  await expect(page.getByText(new RegExp(`^Last changed by ${escapeRegExp(DEMO.name)}, `))).toBeVisible();
  await expect(page).not.toHaveURL(/targets=/);
  await theirs.goto('/batches?tz=UTC');
  await expect(status(theirs)).toHaveText('3,000 batches', { timeout: 20_000 });
  await theirs.getByRole('button', { name: 'Targets' }).click();
  await expect(theirs.getByLabel('Lettuce germination target (%)')).toHaveValue('97');
  await expect(theirs.getByLabel('Petunia germination target (%)')).toHaveValue('70');
  await expect(theirs.getByLabel('Tomato germination target (%)')).toHaveValue('');
  await expect(card(theirs, 'Below target')).toHaveText(new RegExp(`^${expected.toLocaleString('en')} \\(`));
  await colleague.close();

  // Another organisation keeps its own.
  const other = await browser.newContext();
  await signInContext(other, OTHER);
  const stranger = await other.newPage();
  await stranger.goto('/batches?tz=UTC');
  await stranger.getByRole('button', { name: 'Targets' }).click();
  await expect(stranger.getByText('Never saved for your organisation')).toBeVisible();
  await expect(stranger.getByLabel('General germination target (%)')).toHaveValue('90');
  await expect(stranger.getByLabel('Lettuce germination target (%)')).toHaveValue('');
  await other.close();
});

test('each batch is judged by its own crop: badge, target column and filter; legal minimums in one click', async ({
  page,
  context,
}) => {
  await signInContext(context);
  await page.goto('/batches?tz=UTC&crop=Lettuce&sort=avg_germination_rate&dir=asc');
  await expect(status(page)).toHaveText(/^[\d,]+ batches$/, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Targets' }).click();
  // The preset is about germination: a CV threshold set before it stays, and travels in the link.
  await page.getByLabel('Lettuce CV threshold (%)').fill('18');
  await expect(page).toHaveURL((url) => url.searchParams.get('targets')?.includes('Lettuce://18') ?? false);
  await page.getByRole('button', { name: 'Use legal minimums' }).click();
  await expect(page.getByLabel('Lettuce germination target (%)')).toHaveValue('80');
  await expect(page.getByLabel('Lettuce CV threshold (%)')).toHaveValue('18');
  await expect(page.getByLabel('Bell pepper germination target (%)')).toHaveValue('55');
  await expect(page.getByLabel('Petunia germination target (%)')).toHaveValue('');
  await expect(page.getByText(/7 CFR § 201\.31/).first()).toBeVisible();
  await expect(page.getByText(/not a commercial specification/)).toBeVisible();

  // A target most Lettuce batches miss, so that the table has verdicts to show.
  await page.getByLabel('Lettuce germination target (%)').fill('96');
  const { batches } = await walkApi(await signIn(DEMO));
  const lettuce = batches.filter((b) => b.crop_type === 'Lettuce');
  const underGermination = lettuce.filter(
    (b) => b.avg_germination_rate !== null && Number(b.avg_germination_rate) < 96,
  );
  expect(underGermination.length).toBeGreaterThan(0);
  // Below target: any of the crop's targets, the CV threshold of 18 set above too.
  const below = lettuce.filter(
    (b) =>
      underGermination.includes(b) ||
      (b.avg_coefficient_of_variation !== null && Number(b.avg_coefficient_of_variation) > 18),
  );
  expect(below.length).toBeGreaterThan(underGermination.length);
  await page.getByRole('checkbox', { name: 'Below target' }).click();
  await expect(page.getByRole('checkbox', { name: 'Below target' })).toBeChecked();
  await expect(status(page)).toHaveText(
    `${below.length.toLocaleString('en')} ${below.length === 1 ? 'batch' : 'batches'}`,
  );
  const table = page.getByRole('region', { name: 'Batches table' });
  await expect(table.getByText('germination', { exact: true }).first()).toBeVisible();
  await expect(table.getByRole('columnheader', { name: /Target/ })).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('96.0%');
  // The crop's own target, not the general one: Tomato batches at 93 % are not below 90 %.
  expect(
    targetFor(
      { ...DEFAULT_TARGETS, crops: { Lettuce: { germination: 96, usable: null, cv: null } } },
      'Tomato',
      'germination',
    ),
  ).toBe(90);
});
