import { expect, test } from '@playwright/test';

test('/ leads a signed-out person to sign-in, with no console errors and nothing fetched from the internet', async ({
  page,
}) => {
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('request', (request) => {
    const host = new URL(request.url()).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost') foreign.push(request.url());
  });
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fbatches$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tray-scan batches' })).toBeVisible();
  await expect(page).toHaveTitle(/Sign in · Tray-scan batches/);
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
  expect(foreign).toEqual([]);
});
