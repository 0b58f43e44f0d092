import { expect, test, type Page } from '@playwright/test';
import { outOfControl, resetTargets, weightedGermination } from './analysis-figures';
import { signInContext } from './signed-in';
import { asBrowserShows, DEMO, DRIFT, sandbox, signIn, walkApi, type ApiBatch } from './support';

// Section 3 of the issue: the analysis views in a German browser (German words, `72,5 %`, `21.11.2026`),
// while the URL stays locale-free (`bins=germination:70:72.5`).
test.use({ locale: 'de-DE' });

const FROM = '2025-06-01';
const TO = '2025-08-31';
const PATH = `/batches?from=${FROM}&to=${TO}&tz=UTC`;

const de = (n: number, digits = 0) => n.toLocaleString('de-DE', { maximumFractionDigits: digits });
/** A German number read back: `1.234,5` is 1234.5. */
const number = (text: string) => Number(text.replaceAll('.', '').replace(',', '.'));
const rate = (b: ApiBatch) => (b.avg_germination_rate === null ? null : Number(b.avg_germination_rate));
/** In a germination bin as the chart counts it: from lo up to hi, 100 % in the top bin. */
const inBin = (b: ApiBatch, lo: number, hi: number) => {
  const v = rate(b);
  return v !== null && v >= lo && (v < hi || (hi >= 100 && v <= 100));
};

/** Monday of the UTC week a batch was created in. */
function mondayOf(b: ApiBatch): string {
  const t = new Date(Date.parse(b.batch_creation_date as string));
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() - ((t.getUTCDay() + 6) % 7)))
    .toISOString()
    .slice(0, 10);
}

let batches: ApiBatch[] = [];
test.beforeAll(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await resetTargets();
  const lo = Date.parse(`${FROM}T00:00:00Z`),
    hi = Date.parse(`${TO}T00:00:00Z`) + 86_400_000;
  batches = (await walkApi(await signIn(DEMO))).batches.filter((b) => {
    const t = Date.parse(String(b.batch_creation_date));
    return t >= lo && t < hi;
  });
});

async function openGerman(page: Page) {
  await signInContext(page.context(), DEMO);
  await page.goto(PATH);
  await expect(page.getByRole('group', { name: 'Analyse' })).toBeVisible({ timeout: 20_000 });
}

test('the analysis bar, the chart headings, a bin’s table figures and its drill-down chip in German; the URL in plain notation', async ({
  page,
}) => {
  await openGerman(page);
  const bar = page.getByRole('group', { name: 'Analyse' });
  await expect(bar.getByLabel('Kennzahl')).toHaveValue('germination');
  await expect(bar.getByLabel('Kennzahl').locator('option:checked')).toHaveText('Keimrate');
  await expect(bar.getByLabel('Vergleichen mit').locator('option')).toHaveText([
    'Nichts',
    'Vorheriger Zeitraum',
    'Gleicher Zeitraum im Vorjahr',
  ]);
  await expect(bar.getByLabel('Gruppieren nach').locator('option')).toHaveText([
    'Nichts',
    'Kultur',
    'Woche',
    'Monat',
    'Scanner',
    'Kultur und Woche',
  ]);

  // The charts are drawn when scrolled to.
  await page.locator('#charts').scrollIntoViewIfNeeded();
  await expect(
    page.getByRole('figure', { name: /^Keimrate im Zeitverlauf \(gewichteter Wochenmittelwert je Kultur/ }),
  ).toBeVisible();
  await expect(
    page.getByRole('figure', { name: /^Keimrate je Kultur \(gewichteter Mittelwert; Chargen in Klammern\)/ }),
  ).toBeVisible();
  const dist = page.getByRole('figure', {
    name: /^Verteilung der Keimraten \(unter dem Sollwert der jeweiligen Kultur in Rot\)/,
  });
  await expect(dist).toBeVisible();

  // Show as table: each bin named in German notation, its count that of the API's batches in it.
  await dist.getByRole('button', { name: 'Als Tabelle zeigen' }).click();
  const table = dist.getByRole('table');
  await expect(table.getByRole('columnheader').first()).toHaveText('Klasse (Keimrate)');
  await expect(table.getByRole('columnheader').nth(1)).toHaveText('Chargen');
  const rows = await table.locator('tbody tr').all();
  expect(rows.length).toBeGreaterThan(3);
  let decimal: { lo: number; hi: number; label: string } | null = null;
  for (const row of rows) {
    const label = (await row.getByRole('button').textContent())!;
    const [, a, b] = /^Keimrate ([\d.,]+)–([\d.,]+)[\s\u00a0\u202f]%$/.exec(label)!;
    const lo = number(a!),
      hi = number(b!);
    expect(label).not.toMatch(/\d\.\d/);
    await expect(row.locator('td').first()).toHaveText(de(batches.filter((x) => inBin(x, lo, hi)).length));
    if (!decimal && /,/.test(label) && batches.some((x) => inBin(x, lo, hi))) decimal = { lo, hi, label };
  }
  expect(decimal, 'a bin with a decimal edge and batches in it').not.toBeNull();

  // Its drill-down: the chip in German notation, the URL as before (a link works in every language).
  await table.getByRole('button', { name: decimal!.label, exact: true }).click();
  const chips = page.getByRole('list', { name: 'Drilldowns' });
  await expect(chips.getByText(decimal!.label, { exact: true })).toBeVisible();
  await expect(chips.getByRole('button', { name: `${decimal!.label} entfernen` })).toBeVisible();
  const bins = new URL(page.url()).searchParams.get('bins');
  expect(bins).toBe(`germination:${decimal!.lo}:${decimal!.hi}`);
  expect(bins).toMatch(/^germination:\d+(\.\d+)?:\d+(\.\d+)?$/);
  expect(page.url()).not.toMatch(/%2C|,/);
});

test('the grouped summary in German: German column names, a week named by its German date, figures in German notation', async ({
  page,
}) => {
  await openGerman(page);
  await page.getByLabel('Gruppieren nach').selectOption('week');
  await expect(page).toHaveURL(/group=week/);
  const grouped = page.getByRole('table', { name: 'Gruppierte Übersicht' });
  await expect(grouped.getByRole('columnheader').nth(0)).toHaveText('Woche');
  await expect(grouped.getByRole('columnheader').nth(2)).toHaveText('Keimrate (gewichtet)');

  const weeks = new Map<string, ApiBatch[]>();
  for (const b of batches) weeks.set(mondayOf(b), [...(weeks.get(mondayOf(b)) ?? []), b]);
  const [monday, ofWeek] = [...weeks].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))[0]!;
  const label = `Woche vom ${new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(monday))}`;
  expect(label).toMatch(/^Woche vom \d\d\.\d\d\.\d{4}$/);
  const row = grouped.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
  await expect(row.getByRole('cell').nth(0)).toHaveText(de(ofWeek.length));
  const germination = weightedGermination(ofWeek)!;
  await expect(row.getByRole('cell').nth(1)).toHaveText(
    `${germination.toLocaleString('de-DE', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`,
  );
  await expect(row.getByRole('button')).toHaveAttribute('title', `Nur diese ${de(ofWeek.length)} Chargen zeigen`);

  // The row drills down to its days: the URL names them as ISO days, the chip in German.
  await row.getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`days=${monday}\\.\\.\\d{4}-\\d\\d-\\d\\d`));
  const sunday = Date.parse(monday) + 6 * 86_400_000;
  const days = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(
    Date.parse(monday),
    sunday,
  );
  await expect(page.getByRole('list', { name: 'Drilldowns' }).getByText(asBrowserShows(days))).toBeVisible();
});

test('the control charts count the drifting crop out of control in German', async ({ page, context }) => {
  const { batches: drifting } = await walkApi(await signIn(DRIFT));
  const tomato = outOfControl(drifting, 'Tomato', 'limits');
  expect(tomato.beyond).toBeGreaterThan(0);

  await signInContext(context, DRIFT);
  await page.goto('/batches?tz=UTC&metric=germination&spc=Tomato');
  await page.locator('#charts').scrollIntoViewIfNeeded();
  const figure = page.getByRole('figure', {
    name: new RegExp(
      `^Regelkarte: Keimrate, Tomato: ${de(tomato.total)} ihrer ${de(tomato.all)} Chargen; 1 hat keine erfasste Keimrate \\(jede Charge in zeitlicher Reihenfolge`,
    ),
  });
  await figure.scrollIntoViewIfNeeded();
  await expect(figure.getByText(/ außer Kontrolle/).first()).toHaveText(
    `${de(tomato.count)} von ${de(tomato.total)} Chargen (Tomato) außer Kontrolle (${de(tomato.beyond)} außerhalb der Grenzen).`,
    { timeout: 20_000 },
  );
  await expect(page.getByText(/^Außer Kontrolle je Kultur \(Keimrate\): insgesamt [\d.]+ Chargen$/)).toBeVisible();
  await expect(page.getByLabel('Regelkarte für').locator('option:checked')).toHaveText(`Tomato (${de(tomato.all)})`);
  await expect(
    figure.getByText(
      /^So wurden die Grenzen bestimmt: aus den ersten 50 Chargen ohne Warnungen \(\d\d\.\d\d\.\d{4} – \d\d\.\d\d\.\d{4}\)\. /,
    ),
  ).toBeVisible();
  await expect(
    figure.getByText(
      /^Regel: Eine Charge außerhalb der Grenzen ist außer Kontrolle\. Hätte sich nichts geändert, würden Grenzen aus 50 Chargen trotzdem etwa 0,54 von je 100 Chargen zufällig markieren/,
    ),
  ).toBeVisible();
});
