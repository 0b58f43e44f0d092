import { expect, test } from '@playwright/test';
import type { AlertHistory } from '../../lib/contract/alerts';
import { signInContext } from './signed-in';
import { APP_URL, DEMO, DEMO_ADMIN, DEMO_VIEWER, api, sandbox, signIn, type ApiBatch } from './support';

const json = (cookie: string, path: string, method: string, body?: unknown) => api(path, { method, cookie, json: body, headers: { origin: APP_URL } });

test('shots', async ({ browser }) => {
  test.setTimeout(300_000);
  const admin = await signIn(DEMO_ADMIN);
  const rules = [
    { name: 'Lettuce germination', when: 'misses-target', target: 'germination', crop: 'Lettuce', search: 'tray', recipients: [DEMO.email, DEMO_VIEWER.email, 'grower@outside.example'], webhooks: [{ url: 'https://93.184.216.34/hooks/secret-path', format: 'slack', secret: 'a-secret-of-more-than-sixteen' }], delivery: 'daily', digestHour: 6 },
    { name: 'Any short batch', when: 'misses-target', recipients: [DEMO_ADMIN.email, DEMO.email, DEMO_VIEWER.email], delivery: 'immediate' },
    { name: 'Tomato drift', when: 'control-signal', target: 'usable', signal: 'run', crop: 'Tomato', recipients: [], delivery: 'hourly', paused: true },
    { name: 'Quiet scanners', when: 'silent', silentDays: 3, silentBy: 'scanner', recipients: [DEMO_ADMIN.email], delivery: 'immediate' },
  ];
  for (const r of rules) expect((await json(admin, '/api/alerts', 'POST', r)).status, r.name).toBe(201);
  const [model] = ((await (await api('/api/batches', { cookie: admin })).json()) as { data: ApiBatch[] }).data;
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await sandbox('POST', '/_sandbox/edit', { clientId: DEMO.clientId, add: [1, 2, 3].map((i) => ({ ...model!, batch_id: `shot-${i}-${Date.now()}`, batch_name: `Shot ${i}`, batch_creation_date: now, avg_germination_rate: '41.00' })) });
  await expect.poll(async () => ((await (await api('/api/alerts/history', { cookie: admin })).json()) as AlertHistory).unread, { timeout: 60_000 }).toBeGreaterThan(0);

  const combos = [
    { w: 1366, scheme: 'light', locale: 'en-US' },
    { w: 768, scheme: 'dark', locale: 'en-US' },
    { w: 768, scheme: 'light', locale: 'de-DE' },
    { w: 1366, scheme: 'dark', locale: 'de-DE' },
  ] as const;
  for (const c of combos) {
    for (const [role, who] of [['admin', DEMO_ADMIN], ['editor', DEMO], ['viewer', DEMO_VIEWER]] as const) {
      const context = await browser.newContext({ viewport: { width: c.w, height: 900 }, colorScheme: c.scheme, locale: c.locale });
      await signInContext(context, who);
      const page = await context.newPage();
      await page.goto('/account');
      await page.waitForTimeout(1500);
      await page.screenshot({ path: `/tmp/shots-ui/${role}-${c.w}-${c.scheme}-${c.locale}-header.png`, clip: { x: 0, y: 0, width: c.w, height: 140 } });
      await page.goto('/alerts');
      await page.getByRole('table').first().waitFor();
      await page.screenshot({ path: `/tmp/shots-ui/${role}-${c.w}-${c.scheme}-${c.locale}-page.png`, fullPage: true });
      if (role === 'editor') {
        await page.getByRole('button', { name: c.locale === 'de-DE' ? 'Neue Benachrichtigung' : 'New alert' }).click();
        const form = page.getByRole('form');
        await form.getByRole('textbox').first().fill('Shot rule');
        await form.getByRole('button', { name: c.locale === 'de-DE' ? 'Webhook hinzufügen' : 'Add webhook' }).click();
        await form.locator('input[type=url]').fill('http://127.0.0.1/hook');
        await form.locator('input[type=password]').fill('short');
        await form.getByRole('radio').nth(2).check();
        await form.locator('button[type=submit]').click();
        await page.waitForTimeout(1500);
        await page.screenshot({ path: `/tmp/shots-ui/${role}-${c.w}-${c.scheme}-${c.locale}-form.png`, fullPage: true });
      }
      await context.close();
    }
  }
  for (const r of ((await (await api('/api/alerts', { cookie: admin })).json()) as { rules: { id: string }[] }).rules) await json(admin, `/api/alerts/${r.id}`, 'DELETE');
});
