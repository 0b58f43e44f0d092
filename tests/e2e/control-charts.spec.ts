import { expect, test } from '@playwright/test';
import { signInContext } from './signed-in';
import { outOfControl } from './analysis-figures';
import { DRIFT, sandbox, signIn, status, walkApi } from './support';

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test('a control chart counts the drifting crop out of control as the rules do; a click on a mark, or its table by keyboard, opens a batch', async ({ page, context }) => {
  const { batches } = await walkApi(await signIn(DRIFT));
  const tomato = outOfControl(batches, 'Tomato');
  // The organisation was made to drift: both rules must find something for this to test anything.
  expect(tomato.beyond).toBeGreaterThan(0);
  expect(tomato.count).toBeGreaterThan(tomato.beyond);

  await signInContext(context, DRIFT);
  await page.goto('/batches?tz=UTC');
  await expect(status(page)).toHaveText(`${batches.length} batches`, { timeout: 20_000 });
  await page.getByLabel('Metric').selectOption('germination');
  await page.locator('#charts').scrollIntoViewIfNeeded();
  const crop = page.getByLabel('Control chart for');
  await crop.scrollIntoViewIfNeeded();
  await crop.selectOption('Tomato');
  // The chart's crop is in the link: a colleague opening it sees the same chart.
  await expect(page).toHaveURL(/[?&]spc=Tomato(&|$)/);
  const figure = page.getByRole('figure', { name: /^Control chart: Germination rate, Tomato/ });
  await expect(figure.getByText(/ batches out of control/)).toHaveText(
    new RegExp(`^${tomato.count} of ${tomato.total} Tomato batches out of control \\(${tomato.beyond} beyond the limits, `),
  );
  // Lettuce and Basil did not shift: whatever they show, the sum over crops is stated too.
  await expect(page.getByText(/^Out of control per crop \(Germination\): [\d,]+ batches in all$/)).toBeVisible();

  // A click on a mark opens its batch: the first diamond (beyond the limits) is drawn first, `M x,y-5 …`.
  const marks = figure.locator('svg.recharts-surface path[fill="var(--danger)"]');
  const [x, y] = (await marks.getAttribute('d'))!.slice(1).split(/[L,]/).map(Number) as [number, number];
  await figure.locator('svg.recharts-surface').scrollIntoViewIfNeeded();
  const svg = (await figure.locator('svg.recharts-surface').boundingBox())!;
  await page.mouse.click(svg.x + x, svg.y + y + 5);
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(tomato.firstBeyond);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Show as table by keyboard: from the crop select, Tab passes the baseline's radio group to the toggle.
  await crop.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const toggle = figure.getByRole('button', { name: 'Show as table' });
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Tab');
  const firstRow = figure.getByRole('row').nth(1).getByRole('button');
  await expect(firstRow).toBeFocused();
  await expect(firstRow).toHaveText(tomato.firstName);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(tomato.firstName);
});
