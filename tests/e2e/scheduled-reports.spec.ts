import { expect, test } from '@playwright/test';
import { signInContext } from './signed-in';
import { api, DEMO, DEMO_VIEWER, deleteAllViews, signIn } from './support';

test.beforeEach(deleteAllViews);
test.afterEach(deleteAllViews);

/** A view of the last 7 days, shared with the organisation by the demo editor. */
async function aSharedView(name: string): Promise<string> {
  const cookie = await signIn(DEMO);
  const made = await api('/api/settings/views', {
    method: 'POST',
    cookie,
    json: { name, query: 'from=now-7d&to=now&tz=UTC&below=1', shared: true },
  });
  expect(made.status).toBe(201);
  return ((await made.json()) as { id: string }).id;
}

test('an editor sends a saved view on a schedule, sees its next run, and stops it', async ({ page, context }) => {
  test.setTimeout(60_000);
  await aSharedView('Weekly below target');
  await signInContext(context, DEMO);
  await page.goto('/batches?from=now-7d&to=now&tz=UTC');
  await page.getByRole('button', { name: 'Saved views' }).click();
  const list = page.getByRole('region', { name: 'Saved views' });
  await list.getByRole('button', { name: 'Send “Weekly below target” on a schedule' }).click();
  const form = list.getByRole('form', { name: 'Schedule for “Weekly below target”' });
  await expect(form.getByLabel('Send')).toHaveValue('weekly');
  await form.getByLabel('Send').selectOption('monthly');
  await form.getByLabel('On day').selectOption('15');
  await form.getByLabel('At').fill('06:45');
  await form.getByLabel('Time zone').fill('Europe/Amsterdam');
  // The person themselves is a recipient already; a colleague is added.
  await expect(form.getByRole('checkbox', { name: new RegExp(DEMO.email) })).toBeChecked();
  await form.getByRole('checkbox', { name: new RegExp(DEMO_VIEWER.email) }).check();
  await form.getByRole('button', { name: 'Save schedule' }).click();

  // The next run: the 15th at 06:45 on Amsterdam's clock, as the reader's notation writes it.
  const next = form.getByRole('status');
  await expect(next).toContainText(/^Next report: .*15.*06:45.*\(Europe\/Amsterdam\)$/);
  await expect(page.getByText(/“Weekly below target” is sent on a schedule\. Next report: /)).toBeVisible();

  // Read back from the server, as scripts see it.
  const cookie = await signIn(DEMO);
  const views = (await (await api('/api/settings/views', { cookie })).json()) as {
    views: { id: string; name: string }[];
  };
  const id = views.views.find((v) => v.name === 'Weekly below target')!.id;
  const saved = (await (await api(`/api/settings/views/${id}/schedule`, { cookie })).json()) as Record<string, unknown>;
  expect(saved).toMatchObject({
    cadence: 'monthly',
    dayOfMonth: 15,
    time: '06:45',
    timeZone: 'Europe/Amsterdam',
    recipients: [DEMO.email, DEMO_VIEWER.email].sort(),
  });
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Amsterdam',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(Date.parse(saved.nextRunAt as string));
  expect(local).toBe('15, 06:45');

  // Opened again, it shows what was saved; Stop sending removes it.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await list.getByRole('button', { name: 'Send “Weekly below target” on a schedule' }).click();
  await expect(form.getByLabel('Send')).toHaveValue('monthly');
  await expect(form.getByLabel('At')).toHaveValue('06:45');
  await form.getByRole('button', { name: 'Stop sending' }).click();
  await expect(page.getByText('“Weekly below target” is no longer sent on a schedule.')).toBeVisible();
  expect((await api(`/api/settings/views/${id}/schedule`, { cookie })).status).toBe(404);
});

test('a viewer sees why they cannot send a view on a schedule', async ({ page, context }) => {
  await aSharedView('Shared with viewers');
  await signInContext(context, DEMO_VIEWER);
  await page.goto('/batches?from=now-7d&to=now&tz=UTC');
  await page.getByRole('button', { name: 'Saved views' }).click();
  const button = page
    .getByRole('region', { name: 'Saved views' })
    .getByRole('button', { name: 'Send “Shared with viewers” on a schedule' });
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  await expect(button).toHaveAccessibleDescription(
    'Only an editor or an administrator can send a view on a schedule; you are a viewer.',
  );
});
