import { expect, test, type Page } from '@playwright/test';
import { signInContext } from './signed-in';
import { APP_URL, deleteAllViews, sandbox, status } from './support';

const FILTERED = '/batches?tz=UTC&crop=Lettuce&warn=1';
/** The same view once the explorer has written its range (All time) in: what is saved and shared. */
const SHOWN = '/batches?from=all&to=now&tz=UTC&crop=Lettuce&warn=1';

test.beforeEach(async () => {
  await sandbox('POST', '/_sandbox/reset');
  await deleteAllViews();
});
test.afterEach(deleteAllViews);

/** The explorer's count once the whole range has loaded ("N batches", without "incomplete"). */
async function loadedCount(page: Page): Promise<string> {
  await expect(status(page)).toHaveText(/^[\d,]+ batch(es)?$/, { timeout: 20_000 });
  return (await status(page).textContent())!;
}

const openList = async (page: Page) => {
  const button = page.getByRole('button', { name: 'Saved views' });
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  return page.getByRole('region', { name: 'Saved views' });
};

test('a saved view is opened by a colleague with the same URL state and count; made default, renamed, deleted', async ({
  page,
  context,
  browser,
}) => {
  await signInContext(context);
  await page.goto(FILTERED);
  const count = await loadedCount(page);
  expect(count).not.toBe('3,000 batches');

  await page.getByRole('button', { name: 'Save view' }).click();
  await page.getByLabel('View name').fill('Lettuce warnings');
  await page.getByRole('form', { name: 'Save view' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved “Lettuce warnings” for your organisation.')).toBeVisible();

  // A name taken whatever its case is explained beside the field, and nothing is saved twice.
  await page.getByRole('button', { name: 'Save view' }).click();
  await page.getByLabel('View name').fill('lettuce WARNINGS');
  await page.getByRole('form', { name: 'Save view' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('form', { name: 'Save view' }).getByRole('alert')).toHaveText(
    'Not saved: a view named "Lettuce warnings" already exists in your organisation; choose another name',
  );
  await page.getByRole('button', { name: 'Cancel' }).click();

  // A colleague: a browser of their own, signed in to the same organisation, on the plain page.
  const colleague = await browser.newContext();
  await signInContext(colleague);
  const theirs = await colleague.newPage();
  await theirs.goto('/batches?tz=UTC');
  await expect(await loadedCount(theirs)).toBe('3,000 batches');
  let list = await openList(theirs);
  await list.getByRole('link', { name: 'Lettuce warnings' }).click();
  await expect(theirs).toHaveURL(APP_URL + SHOWN);
  await expect(theirs.getByLabel('Crop', { exact: true })).toHaveValue('Lettuce');
  await expect(theirs.getByLabel('Warnings only')).toBeChecked();
  expect(await loadedCount(theirs)).toBe(count);

  // Made the default: the bare /batches opens it, for the colleague too.
  list = await openList(page);
  await list.getByRole('button', { name: 'Make default: Lettuce warnings' }).click();
  await expect(list.getByText('Default', { exact: true })).toBeVisible();
  await theirs.goto('/batches');
  await expect(theirs).toHaveURL(APP_URL + SHOWN);
  expect(await loadedCount(theirs)).toBe(count);
  // State of its own in the URL wins over the default.
  await theirs.goto('/batches?tz=UTC&below=1');
  await expect(theirs.getByLabel('Crop', { exact: true })).toHaveValue('');
  await colleague.close();

  await list.getByRole('button', { name: 'Rename: Lettuce warnings' }).click();
  await list.getByLabel('New name').fill('Lettuce with warnings');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByRole('link', { name: 'Lettuce with warnings' })).toBeVisible();
  await expect(list.getByRole('link', { name: 'Lettuce warnings', exact: true })).toHaveCount(0);

  await list.getByRole('button', { name: 'Delete: Lettuce with warnings' }).click();
  await list
    .getByRole('group', { name: 'Delete Lettuce with warnings?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(list.getByText('No saved views yet.')).toBeVisible();
  await page.goto('/batches');
  await expect(page).toHaveURL(/^[^?]*\/batches\?from=all&to=now&tz=[^&]+$/);
});
