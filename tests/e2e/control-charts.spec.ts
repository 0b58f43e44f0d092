import { expect, test, type Page } from '@playwright/test';
import { falseAlarms } from '../../lib/explorer/control/false-alarms';
import { signInContext } from './signed-in';
import { outOfControl } from './analysis-figures';
import { DEMO, DRIFT, sandbox, signIn, status, walkApi, type ApiBatch } from './support';

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

/** Numbers as the en-GB browser of these specs writes them: `0.54`, `92.98%`. */
const num = (v: number, digits = 2) => v.toLocaleString('en-GB', { maximumFractionDigits: digits });
const pct = (v: number, digits = 2) => `${num(v, digits)}%`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function controlChart(page: Page, crop: string) {
  await page.locator('#charts').scrollIntoViewIfNeeded();
  const select = page.getByLabel('Control chart for');
  await select.scrollIntoViewIfNeeded();
  await expect(select.locator('option:checked')).toHaveText(new RegExp(`^${crop} \\(`), { timeout: 20_000 });
  return page.getByRole('figure', { name: new RegExp(`^Control chart: Germination rate, ${crop}`) });
}

test('a control chart counts the drifting crop out of control as the rules do; a click on a mark, or its table by keyboard, opens a batch', async ({
  page,
  context,
}) => {
  const { batches } = await walkApi(await signIn(DRIFT));
  const tomato = outOfControl(batches, 'Tomato', 'runs');
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
  await page.getByRole('radio', { name: 'Beyond the limits, or in a run of 8 on one side' }).click();
  await expect(page).toHaveURL(/[?&]rules=runs(&|$)/);
  const figure = page.getByRole('figure', { name: /^Control chart: Germination rate, Tomato/ });
  await expect(figure.getByText(/ batches out of control/)).toHaveText(
    new RegExp(
      `^${tomato.count} of ${tomato.total} Tomato batches out of control \\(${tomato.beyond} beyond the limits, `,
    ),
  );
  // Lettuce and Basil did not shift: whatever they show, the sum over crops is stated too.
  await expect(page.getByText(/^Out of control per crop \(Germination\): [\d,]+ batches in all$/)).toBeVisible();

  // A click on a mark opens its batch: the first diamond (beyond the limits) is drawn first, `M x,y-5 …`.
  const marks = figure.locator('svg.recharts-surface path[fill="var(--danger)"]');
  const [x, y] = (await marks.getAttribute('d'))!.slice(1).split(/[L,]/).map(Number) as [number, number];
  await figure.locator('svg.recharts-surface').scrollIntoViewIfNeeded();
  const svg = (await figure.locator('svg.recharts-surface').boundingBox())!;
  await page.mouse.click(svg.x + x, svg.y + y + 5);
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(tomato.firstBeyond!);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Show as table by keyboard: from the crop select, Tab passes the baseline's and the rules' radio groups to the toggle.
  await crop.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const toggle = figure.getByRole('button', { name: 'Show as table' });
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Tab');
  const firstRow = figure.getByRole('row').nth(1).getByRole('button');
  await expect(firstRow).toBeFocused();
  await expect(firstRow).toHaveText(tomato.firstName!);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(tomato.firstName!);
});

test('the chart says how its limits were set and from how many batches, the rules in force and their chance of a false alarm; the rules travel in the link', async ({
  page,
  context,
}) => {
  const { batches } = await walkApi(await signIn(DRIFT));
  const limits = outOfControl(batches, 'Tomato', 'limits');
  const runs = outOfControl(batches, 'Tomato', 'runs');
  await signInContext(context, DRIFT);
  // A link from before the rules could be chosen: it opens, judged by the limits alone.
  await page.goto('/batches?tz=UTC&spc=Tomato');
  await expect(status(page)).toHaveText(`${batches.length} batches`, { timeout: 20_000 });
  const figure = await controlChart(page, 'Tomato');

  // One Tomato scan failed (no rate): the chart counts fewer batches than the crop has, and its title says why.
  expect(limits.all - limits.total).toBe(1);
  await expect(figure).toHaveAccessibleName(
    new RegExp(
      `^Control chart: Germination rate, Tomato: ${limits.total} of its ${limits.all} batches; 1 has no germination rate recorded`,
    ),
  );
  await expect(page.getByLabel('Control chart for').locator('option:checked')).toHaveText(`Tomato (${limits.all})`);
  await expect(
    page.getByRole('figure', { name: /Germination rate per crop/ }).getByText(`Tomato (${limits.all})`),
  ).toBeVisible();

  await expect(page.getByRole('radio', { name: 'Beyond the limits', exact: true })).toBeChecked();
  await expect(figure.getByText(/ batches out of control/)).toHaveText(
    `${limits.count} of ${limits.total} Tomato batches out of control (${limits.beyond} beyond the limits).`,
  );
  const how = figure.getByText(/^How the limits were set:/);
  await expect(how).toContainText('from the first 50 batches without warnings (');
  await expect(how).toContainText(`Centre: their mean, ${pct(limits.centre)}.`);
  await expect(how).toContainText('(the moving range) is');
  await expect(how).toContainText('divided by 1.128, it estimates the spread of a steady process from batch to batch');
  await expect(how).toContainText(`UCL ${pct(limits.ucl)}, LCL ${pct(limits.lcl)}.`);
  await expect(how).toContainText('with warnings in the baseline’s span were left out of the limits');
  const alarms = (rules: 'limits' | 'runs') => {
    const a = falseAlarms(rules, 50);
    return `limits from 50 batches would still mark about ${num(a.perHundred, a.perHundred < 1 ? 2 : 1)} of every 100 batches by chance, and 100 batches would hold at least one false alarm with a chance of ${pct(100 * a.inHundred, 0)}`;
  };
  const chance = figure.getByText(/^Rules?: /);
  await expect(chance).toHaveText(
    new RegExp(
      `^Rule: a batch beyond the limits is out of control\\. If nothing had changed, ${escape(alarms('limits'))} `,
    ),
  );
  // A baseline of 50 needs no advice.
  await expect(figure.getByText(/Limits from fewer than 50 batches/)).toHaveCount(0);

  await page.getByRole('radio', { name: 'Beyond the limits, or in a run of 8 on one side' }).click();
  await expect(page).toHaveURL(/[?&]rules=runs(&|$)/);
  await expect(chance).toHaveText(
    new RegExp(
      `^Rules: a batch beyond the limits, or in a run of 8 or more on one side of the centre, is out of control\\. If nothing had changed, ${escape(alarms('runs'))} `,
    ),
  );
  await expect(figure.getByText(/ batches out of control/)).toHaveText(
    new RegExp(`^${runs.count} of ${runs.total} Tomato batches out of control`),
  );
  await page.goBack();
  await expect(page).not.toHaveURL(/rules=/);
  await expect(figure.getByText(/ batches out of control/)).toHaveText(new RegExp(`^${limits.count} of `));
});

test('a short baseline gets the advice to take a longer one, and the chosen period in one click', async ({
  page,
  context,
}) => {
  const { batches } = await walkApi(await signIn(DRIFT));
  const day = (b: ApiBatch) => String(b.batch_creation_date).slice(0, 10);
  const first = day(batches[0]!),
    last = day(batches.at(-1)!);
  // Tomato's first 40 days: a baseline of about 20 batches.
  const end = new Date(Date.parse(`${first}T00:00:00Z`) + 39 * 86_400_000).toISOString().slice(0, 10);
  const clean = batches.filter(
    (b) => b.crop_type === 'Tomato' && b.avg_germination_rate !== null && b.warnings !== true,
  );
  const inBase = clean.filter((b) => day(b) <= end).length;
  expect(inBase).toBeLessThan(50);
  await signInContext(context, DRIFT);
  await page.goto(`/batches?tz=UTC&spc=Tomato&base=${first}..${end}`);
  const figure = await controlChart(page, 'Tomato');
  await expect(figure.getByText(/^How the limits were set:/)).toContainText(
    `from the ${inBase} batches without warnings created `,
  );
  const a = falseAlarms('limits', inBase);
  await expect(figure.getByText(/^Rule: /)).toContainText(
    `limits from ${inBase} batches would still mark about ${num(a.perHundred, a.perHundred < 1 ? 2 : 1)} of every 100`,
  );
  await expect(figure.getByText(/^Limits from fewer than 50 batches are uncertain/)).toBeVisible();
  // All time: the chosen period runs from the first batch's day to the last's.
  const use = figure.getByRole('button', {
    name: new RegExp(`^Use the chosen period, .+, as the baseline \\(${clean.length} batches\\)$`),
  });
  await use.click();
  await expect(page).toHaveURL(new RegExp(`[?&]base=${first}\\.\\.${last}(&|$)`));
  await expect(figure.getByText(/^How the limits were set:/)).toContainText(
    `from the ${clean.length} batches without warnings created `,
  );
  await expect(figure.getByText(/^Limits from fewer than 50 batches/)).toHaveCount(0);
});

test('crops that do not drift raise about as many alarms as chance would: the drift organisation’s Lettuce, the demo’s crops over All time', async ({
  page,
  context,
}) => {
  const drift = (await walkApi(await signIn(DRIFT))).batches;
  const lettuce = outOfControl(drift, 'Lettuce', 'limits');
  // Lettuce was made steady: limits from 50 batches mark about 0.5 in 100 of its batches by chance.
  expect(lettuce.count).toBeLessThanOrEqual(2);
  await signInContext(context, DRIFT);
  await page.goto('/batches?tz=UTC&spc=Lettuce');
  const figure = await controlChart(page, 'Lettuce');
  await expect(figure.getByText(/ batches out of control/)).toHaveText(
    new RegExp(`^${lettuce.count} of ${lettuce.total} Lettuce batches out of control`),
  );

  // The demo over All time: each crop counted as the rule counts it, and all of them together a handful.
  const demo = (await walkApi(await signIn(DEMO))).batches;
  const crops = [...new Set(demo.map((b) => b.crop_type as string | null))];
  const total = crops.reduce((n, crop) => n + outOfControl(demo, crop, 'limits').count, 0);
  expect(total).toBeLessThan(demo.length / 50);
  await signInContext(context, DEMO);
  await page.goto('/batches?tz=UTC');
  await expect(status(page)).toHaveText(`${demo.length.toLocaleString('en-GB')} batches`, { timeout: 20_000 });
  await page.locator('#charts').scrollIntoViewIfNeeded();
  await page.getByLabel('Control chart for').scrollIntoViewIfNeeded();
  await expect(page.getByText(/^Out of control per crop \(Germination\): /)).toHaveText(
    `Out of control per crop (Germination): ${total} batches in all`,
    { timeout: 20_000 },
  );
});

test('a limit past the scale is drawn at its edge and labelled with its own value', async ({ page, context }) => {
  // The demo's Lettuce germinates around 95 % with a spread that puts its UCL above 100 %.
  await signInContext(context, DEMO);
  await page.goto('/batches?tz=UTC&spc=Lettuce');
  const figure = await controlChart(page, 'Lettuce');
  const how = figure.getByText(/^How the limits were set:/);
  const ucl = Number(/UCL ([\d.]+)%/.exec((await how.textContent())!)![1]);
  expect(ucl).toBeGreaterThan(100);
  await expect(how).toContainText(
    'The UCL lies above 100%, so no batch can be beyond it; it is drawn at the top edge.',
  );
  const label = figure.locator('svg.recharts-surface').getByText(/^UCL [\d.]+% ↑$/);
  await expect(label).toBeVisible();
  // At the top of the plot, where the value axis ends (at 100 %).
  const axis = (await figure
    .locator('svg.recharts-surface .recharts-yAxis .recharts-cartesian-axis-line')
    .boundingBox())!;
  const at = (await label.boundingBox())!;
  expect(Math.abs(at.y + at.height / 2 - axis.y)).toBeLessThan(8);
});
