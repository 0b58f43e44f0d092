import { expect, test, type Page } from '@playwright/test';
import type { Targets } from '../../lib/contract';
import { readCsv } from '../helpers/csv';
import { readXlsx } from '../helpers/xlsx';
import { batchesOn, daysAgo, oneDecimal, resetTargets } from './analysis-figures';
import { signInContext } from './signed-in';
import { api, APP_URL, exportFrom, sandbox, signIn, status, type ApiBatch } from './support';

/*
 * "Below target" counts a batch that misses any of its crop's targets: below the germination target, below the
 * usable-seedling target, above the CV threshold, each where it is set (a crop's empty target falls back to the
 * general one). The figures are worked out here from the API's batches, not through the app's modules.
 */

const CROP = 'Bell pepper';
// A past range of the demo organisation (its batches are the two years before the sandbox started).
const FROM = daysAgo(120),
  TO = daysAgo(31);
const PAGE = `/batches?tz=UTC&from=${FROM}&to=${TO}&crop=${encodeURIComponent(CROP)}`;
/** What the panel is given below: Bell pepper inherits the general usable target and has a CV threshold of its own. */
const TARGETS: Targets = {
  general: { germination: 90, usable: 85, cv: 30 },
  crops: { [CROP]: { germination: null, usable: null, cv: 28 } },
};

type Kind = 'germination' | 'usable' | 'cv';
/** The kinds of target a batch misses and whether any target judges it, by the rule above. */
function judge(b: ApiBatch, targets: Targets): { missed: Kind[]; judged: boolean } {
  const figure = {
    germination: b.avg_germination_rate,
    usable: b.avg_usable_seedling_rate,
    cv: b.avg_coefficient_of_variation,
  };
  const missed: Kind[] = [];
  let judged = false;
  for (const kind of ['germination', 'usable', 'cv'] as const) {
    const target = targets.crops[b.crop_type as string]?.[kind] ?? targets.general[kind];
    if (target === null || figure[kind] === null) continue;
    judged = true;
    const v = Number(figure[kind]);
    if (kind === 'cv' ? v > target : v < target) missed.push(kind);
  }
  return { missed, judged };
}

function counts(batches: readonly ApiBatch[], targets: Targets) {
  const judged = batches.map((b) => judge(b, targets));
  const of = (kind: Kind) => judged.filter((j) => j.missed.includes(kind)).length;
  return {
    any: judged.filter((j) => j.missed.length > 0).length,
    judged: judged.filter((j) => j.judged).length,
    germination: of('germination'),
    usable: of('usable'),
    cv: of('cv'),
  };
}

const card = (page: Page) =>
  page
    .getByRole('region', { name: 'Summary' })
    .locator('div', { has: page.getByText('Below target', { exact: true }) })
    .locator('dd');
const which = (page: Page) => page.getByLabel('Which target');
/** The Below target cells of the rows in the DOM (the table is virtualized). */
const missCells = (page: Page) => page.locator('tbody tr[data-index] td:nth-child(6)');
const batchesText = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'batch' : 'batches'}`;

let batches: ApiBatch[];
test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
  batches = (await batchesOn(await signIn(), FROM, TO)).filter((b) => b.crop_type === CROP);
});
test.afterEach(resetTargets);

test('the Below target card and filter count the usable-seedling target and the CV threshold, as the API’s batches give', async ({
  page,
  context,
}) => {
  await signInContext(context);
  const n = counts(batches, TARGETS);
  // The data holds what the rule is about: batches missing only their usable target or only their CV threshold.
  expect(n.usable).toBeGreaterThan(0);
  expect(n.cv).toBeGreaterThan(0);
  expect(n.any).toBeGreaterThan(n.germination);

  await page.goto(PAGE);
  await expect(status(page)).toHaveText(batchesText(batches.length), { timeout: 20_000 });
  // The targets set as people set them: in the panel, saved.
  await page.getByRole('button', { name: 'Targets' }).click();
  await page.getByLabel('General usable target (%)').fill('85');
  await page.getByLabel('General CV threshold (%)').fill('30');
  await page.getByLabel(`${CROP} CV threshold (%)`).fill('28');
  await page.getByRole('button', { name: 'Save targets' }).click();
  await expect(page.getByText(/^Last changed by /)).toBeVisible();

  await expect(card(page)).toHaveText(
    `${n.any} (${oneDecimal((n.any / n.judged) * 100)}%)germination ${n.germination} · usable ${n.usable} · CV ${n.cv}`,
  );

  // The filter: any target first (`below=1`, as links have always said), then each kind.
  await page.getByLabel('Below target').click();
  await expect(page.getByLabel('Below target')).toBeChecked();
  await expect(page).toHaveURL(/[?&]below=1(&|$)/);
  await expect(which(page)).toHaveValue('1');
  await expect(status(page)).toHaveText(batchesText(n.any));
  for (const [kind, label, badge] of [
    ['usable', 'usable seedlings', 'usable'],
    ['cv', 'CV', 'CV'],
    ['germination', 'germination', 'germination'],
  ] as const) {
    await which(page).selectOption({ label });
    await expect(page).toHaveURL(new RegExp(`[?&]below=${kind}(&|$)`));
    await expect(status(page)).toHaveText(batchesText(n[kind]));
    // Every row shown names the target it missed.
    const cells = missCells(page);
    await expect(cells.first()).toBeVisible();
    for (const text of await cells.allTextContents()) expect(text.split(' ')).toContain(badge);
  }

  // The detail of a batch missing its usable target says so, with the crop's (inherited) target.
  await which(page).selectOption({ label: 'usable seedlings' });
  await expect(status(page)).toHaveText(batchesText(n.usable));
  await page.locator('tbody tr[data-index="0"]').getByRole('button').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Below the ${CROP} usable-seedling target of 85%`);
  const id = new URL(page.url()).searchParams.get('batch');
  const shown = batches.find((b) => b.batch_id === id)!;
  if (judge(shown, TARGETS).missed.includes('cv'))
    await expect(dialog).toContainText(`Above the ${CROP} CV threshold of 28%`);
  else await expect(dialog).toContainText(`Within the ${CROP} CV threshold of 28%`);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A link made before the kinds existed (`below=1`) means any target; the grouped summary counts the same.
  await page.goto(`${PAGE}&below=1`);
  await expect(status(page)).toHaveText(batchesText(n.any), { timeout: 20_000 });
  await expect(page.getByLabel('Below target')).toBeChecked();
  await expect(which(page)).toHaveValue('1');
  await page.goto(`${PAGE}&group=crop`);
  const row = page
    .getByRole('table', { name: 'Grouped summary' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: CROP, exact: true }) });
  await expect(row.getByRole('cell').nth(4)).toHaveText(String(n.any), { timeout: 20_000 });
  await expect(row.getByRole('cell').nth(5)).toHaveText(`${oneDecimal((n.any / n.judged) * 100)}%`);
});

test('exports and the View sheet use the same rule and words: the targets missed, the filter, each crop’s targets in force', async ({
  page,
  context,
}) => {
  const cookie = await signInContext(context);
  const saved = await api('/api/settings/targets', {
    method: 'PUT',
    cookie,
    json: { targets: TARGETS },
    headers: { origin: APP_URL },
  });
  expect(saved.status).toBe(200);
  const n = counts(batches, TARGETS);
  const words = { germination: 'germination', usable: 'usable', cv: 'CV' };
  const byId = new Map(batches.map((b) => [b.batch_id, b]));

  // Every batch missing a target, in the table's order (by name), then written out.
  await page.goto(`${PAGE}&below=1&sort=batch_name&dir=asc`);
  await expect(status(page)).toHaveText(batchesText(n.any), { timeout: 20_000 });
  const apiFile = await exportFrom(page, 'CSV (API fields)');
  const order = readCsv(apiFile.bytes.toString('utf8'))
    .slice(1)
    .map((r) => byId.get(r[0]!)!);
  expect(order).toHaveLength(n.any);
  const expected = order.map((b) =>
    judge(b, TARGETS)
      .missed.map((k) => words[k])
      .join(', '),
  );
  expect(expected.every((e) => e !== '')).toBe(true);

  const book = await readXlsx((await exportFrom(page, 'Excel (.xlsx)')).bytes);
  const [header, ...data] = book.sheets[0]!.rows;
  const column = header!.indexOf('Off target');
  expect(column).toBeGreaterThan(0);
  expect(data.map((r) => r[column])).toEqual(expected);
  const view = Object.fromEntries(book.sheets[1]!.rows.map((r) => [r[0], r[1]]));
  expect(view['Below target']).toBe('Yes: any target');
  expect(view.Targets).toContain('General: germination 90.0%, usable seedlings 85.0%, CV threshold 30.0%');
  expect(view.Targets).toContain(
    `${CROP}: germination 90.0% (general), usable seedlings 85.0% (general), CV threshold 28.0% (own)`,
  );

  const csv = readCsv((await exportFrom(page, 'CSV')).bytes.toString('utf8').slice(1));
  expect(csv.slice(1).map((r) => r[csv[0]!.indexOf('Off target')])).toEqual(expected);

  // One kind: the View sheet names it.
  await page.goto(`${PAGE}&below=cv`);
  await expect(status(page)).toHaveText(batchesText(n.cv), { timeout: 20_000 });
  const cvBook = await readXlsx((await exportFrom(page, 'Excel (.xlsx)')).bytes);
  expect(Object.fromEntries(cvBook.sheets[1]!.rows.map((r) => [r[0], r[1]]))['Below target']).toBe('Yes: CV');
  expect(cvBook.sheets[0]!.rows).toHaveLength(n.cv + 1);
});
