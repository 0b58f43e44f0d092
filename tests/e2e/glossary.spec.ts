import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { signInContext } from './signed-in';
import { sandbox, status } from './support';

type Glossary = { concepts: Record<string, Record<'de', { term: string; forbidden: string[] }>> };
const glossary = JSON.parse(readFileSync(join(process.cwd(), 'messages', 'glossary.json'), 'utf8')) as Glossary;

test.beforeEach(() => sandbox('POST', '/_sandbox/reset'));

test('German: the cards, the Targets panel, the grouped summary and the charts say each concept in the glossary’s word', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  await signInContext(context);
  const page = await context.newPage();
  // A usable-seedling target and a CV threshold, so that every chart draws them; the usable rate as the metric.
  await page.goto(`/batches?tz=UTC&metric=usable&group=crop&targets=${encodeURIComponent('*:90/80/15')}`);
  await expect(status(page)).toHaveText(`${(3000).toLocaleString('de-DE')} Chargen`, { timeout: 20_000 });

  const summary = page.getByRole('region', { name: 'Zusammenfassung' });
  await expect(summary.getByText('Nutzbare Sämlinge (gewichtet)', { exact: true })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Gruppierte Übersicht' })
      .getByRole('columnheader', { name: 'Nutzbare Sämlinge (gewichtet)' }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Sollwerte', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Sollwerte' });
  await expect(panel.getByRole('columnheader', { name: 'Sollwert nutzbare Sämlinge (%)' })).toBeVisible();
  await expect(
    panel.getByRole('columnheader', { name: 'VK-Schwellenwert (%): darüber zu ungleichmäßig' }),
  ).toBeVisible();
  await expect(panel.getByRole('columnheader', { name: 'Gesetzliche Mindest-Keimrate' })).toBeVisible();
  await expect(page.getByLabel('Allgemeiner VK-Schwellenwert (%)')).toHaveValue('15');

  await expect(page.getByLabel('Kennzahl').locator('option:checked')).toHaveText('Anteil nutzbarer Sämlinge');
  await page.locator('#charts').scrollIntoViewIfNeeded();
  await expect(page.getByRole('figure', { name: /^Anteil nutzbarer Sämlinge im Zeitverlauf/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('figure', { name: /^Verteilung der Anteile nutzbarer Sämlinge/ })).toBeVisible();
  const uniformity = page.getByRole('region', { name: 'Keimrate und Gleichmäßigkeit' });
  await uniformity.scrollIntoViewIfNeeded();
  await expect(uniformity.locator('[data-line="cv"]')).toHaveText('VK-Schwellenwert 15 %');
  await expect(uniformity.getByText('Gleichmäßig und Sollwert erreicht')).toBeVisible();

  // Nowhere on the page a variant the glossary rules out (the table's rows left out: batch names and comments
  // are the organisation's own words).
  const text = await page.evaluate(() => {
    const rows = document.querySelector<HTMLElement>('[aria-label="Chargentabelle"] tbody')!;
    rows.style.display = 'none';
    const all = document.body.innerText;
    rows.style.display = '';
    return all;
  });
  const found = Object.entries(glossary.concepts).flatMap(([name, c]) =>
    c.de.forbidden
      .filter((variant) => new RegExp(variant, 'iu').test(text))
      .map((variant) => `${name}: ${variant} (say ${c.de.term})`),
  );
  expect(found).toEqual([]);
  await context.close();
});
