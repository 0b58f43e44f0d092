import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from '../../sandbox/organisations';
import { newBatch } from '../helpers/alert-recorder';
import { startMailServer, type MailServer } from '../helpers/mail-server';
import { PEOPLE } from '../helpers/people';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { startApp, type AppInstance } from './app-instance';

/**
 * Alerts end to end: the built app (production server) watching a sandbox of this file's own over HTTP every
 * 5 s, e-mailing a real SMTP server on loopback (read back with mailparser) and posting to a webhook receiver
 * that checks the signature. A below-target batch is reported once, not again after a restart; batches added
 * while the service is down are reported once when it is back; two instances on PostgreSQL send each once.
 * No sleeps: the test waits for the e-mails, the webhooks, and the sandbox's count of batch requests (checks).
 */
const PORTS = { a: 4902, b: 4903, c: 4904, d: 4905 };
const SECRET = 'end-to-end-webhook-secret-0123';
const WATCH = { WATCH_INTERVAL_S: '5', WEBHOOK_ALLOW_PRIVATE: '1', MAIL_FROM: 'Tray scans <alerts@dashboard.test>' };

let sandbox: Sandbox;
let mail: MailServer;
let hooks: WebhookReceiver;
const apps = new Set<AppInstance>();
const dirs: string[] = [];
let postgres: PostgresServer | undefined;

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  sandbox = await startSandbox({ port: 4901, batches: 300 });
  mail = await startMailServer();
  hooks = await startWebhookReceiver(SECRET);
});
test.afterAll(async () => {
  for (const app of apps) await app.stop();
  await Promise.all([sandbox?.close(), mail?.close(), hooks?.close(), postgres?.stop()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(port: number, env: Record<string, string>): Promise<AppInstance> {
  const app = await startApp(port, { BATCH_API_BASE_URL: sandbox.url, SMTP_URL: mail.url, ...WATCH, ...env });
  apps.add(app);
  return app;
}
async function stop(app: AppInstance) {
  await app.stop();
  apps.delete(app);
}

/** Signed in as `person`: the session cookie, for the API calls below (same origin, as a browser would). */
async function signIn(app: AppInstance, person: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${app.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  expect(response.status).toBe(204);
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith('tsb_session='))!
    .split(';')[0]!;
}

async function api(app: AppInstance, cookie: string, path: string, method = 'GET', body?: unknown) {
  const response = await fetch(app.url + path, {
    method,
    headers: { cookie, origin: app.url, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json().catch(() => null)) as Record<string, unknown> };
}

const stats = async () =>
  (await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as { batchRequests: number; faultsServed: number };
/** Resolves once the watcher has read the service `checks` more times (each check asks for the batches since its watermark). */
async function checksRun(checks: number) {
  const from = (await stats()).batchRequests;
  await expect
    .poll(async () => (await stats()).batchRequests, { timeout: 60_000, intervals: [250] })
    .toBeGreaterThanOrEqual(from + checks);
}
const addBatch = (clientId: string, batch: ReturnType<typeof newBatch>) =>
  fetch(`${sandbox.url}/_sandbox/edit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, add: [batch] }),
  });
const faults = (settings: Record<string, unknown>) =>
  fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
const hookIds = (received: WebhookReceiver['requests']) =>
  received.flatMap((r) => ((r.json as { batches?: { id: string }[] } | null)?.batches ?? []).map((b) => b.id));

test('a below-target batch is reported once by e-mail and webhook; not again after a restart; what came during an outage, once after it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsb-alerts-e2e-'));
  dirs.push(dir);
  let app = await start(PORTS.a, { SETTINGS_DATA_DIR: dir });
  const admin = await signIn(app, PEOPLE.demo.admin);
  const created = await api(app, admin, '/api/alerts', 'POST', {
    name: 'Below target',
    when: 'misses-target',
    target: 'germination',
    recipients: [PEOPLE.demo.editor.email],
    webhooks: [{ url: hooks.url, format: 'json', secret: SECRET }],
    delivery: 'immediate',
  });
  expect(created.status).toBe(201);

  const poor = newBatch(Date.now(), { germination: 41.5, name: 'Poor petunias' });
  await addBatch(DEMO_CREDENTIALS.clientId, poor);
  const [email] = await mail.waitFor(1);
  await hooks.waitFor(1);
  expect(email!.envelopeTo).toEqual([PEOPLE.demo.editor.email]);
  expect(email!.mail.text).toContain('Poor petunias');
  expect(email!.mail.text).toContain('41.5');
  expect(hooks.accepted()).toHaveLength(1);
  expect(JSON.stringify(hooks.accepted()[0]!.json)).toContain(poor.batch_id);

  // Two more checks: nothing new.
  await checksRun(2);
  expect([mail.received.length, hooks.requests.length]).toEqual([1, 1]);

  // A restart (same database): the batch is still there to see, and is not reported again.
  await stop(app);
  app = await start(PORTS.a, { SETTINGS_DATA_DIR: dir });
  await checksRun(2);
  expect([mail.received.length, hooks.requests.length]).toEqual([1, 1]);

  // The service goes down; a batch arrives meanwhile; checks fail; the service comes back.
  await faults({ outage: true, retryAfterS: 0 });
  const during = newBatch(Date.now(), { germination: 12, name: 'Missed while down' });
  await addBatch(DEMO_CREDENTIALS.clientId, during);
  const faultsBefore = (await stats()).faultsServed;
  await expect
    .poll(async () => (await stats()).faultsServed, { timeout: 60_000, intervals: [250] })
    .toBeGreaterThan(faultsBefore);
  expect(mail.received.length).toBe(1);
  await faults({ outage: false, retryAfterS: null });
  const mails = await mail.waitFor(2);
  await hooks.waitFor(2);
  expect(mails[1]!.mail.text).toContain('Missed while down');
  await checksRun(2);
  expect([mail.received.length, hooks.accepted().length]).toEqual([2, 2]);
  expect(hookIds(hooks.accepted())).toEqual([poor.batch_id, during.batch_id]);

  // The history says what went where.
  const history = await api(app, admin, '/api/alerts/history');
  const entries = history.json.entries as { channel: string; delivered: boolean; batchIds: string[] }[];
  expect(entries.filter((e) => e.channel === 'email').every((e) => e.delivered)).toBe(true);
  expect(
    entries
      .filter((e) => e.channel === 'webhook')
      .flatMap((e) => e.batchIds)
      .sort(),
  ).toEqual([poor.batch_id, during.batch_id].sort());
  await stop(app);
});

/** A database of its own on this file's PostgreSQL (started once). */
async function database(name: string): Promise<string> {
  postgres ??= await startPostgres();
  return postgres.createDatabase(name);
}

test('two instances on PostgreSQL: each finding is sent once', async () => {
  const databaseUrl = await database('alerts');
  const first = await start(PORTS.b, { DATABASE_URL: databaseUrl });
  const second = await start(PORTS.c, { DATABASE_URL: databaseUrl });
  const admin = await signIn(first, PEOPLE.other.admin);
  const created = await api(first, admin, '/api/alerts', 'POST', {
    name: 'Warnings',
    when: 'warnings',
    recipients: [PEOPLE.other.viewer.email],
    webhooks: [{ url: hooks.url, format: 'slack', secret: SECRET }],
    delivery: 'immediate',
  });
  expect(created.status).toBe(201);
  const [mailsBefore, hooksBefore] = [mail.received.length, hooks.requests.length];
  const warned = newBatch(Date.now(), { warnings: true, name: 'Warned tray' });
  await addBatch(OTHER_CREDENTIALS.clientId, warned);
  await mail.waitFor(mailsBefore + 1);
  await hooks.waitFor(hooksBefore + 1);
  // Several checks later, across both instances: still one of each.
  await checksRun(3);
  expect([mail.received.length - mailsBefore, hooks.requests.length - hooksBefore]).toEqual([1, 1]);
  expect(mail.received.at(-1)!.envelopeTo).toEqual([PEOPLE.other.viewer.email]);
  expect(mail.received.at(-1)!.mail.text).toContain('Warned tray');
  await Promise.all([stop(first), stop(second)]);
});

test('a scheduled report from the production server carries its printed report as PDF', async ({}, info) => {
  const databaseUrl = await database('reports');
  const app = await start(PORTS.d, {
    DATABASE_URL: databaseUrl,
    PDF_CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  const editor = await signIn(app, PEOPLE.demo.editor);
  const view = await api(app, editor, '/api/settings/views', 'POST', {
    name: 'Printed weekly',
    query: 'from=now-30d&to=now&tz=UTC&below=1',
    shared: true,
  });
  expect(view.status).toBe(201);
  const id = view.json.id as string;
  const schedule = {
    cadence: 'weekly',
    weekday: 1,
    time: '07:00',
    timeZone: 'UTC',
    recipients: [PEOPLE.demo.editor.email],
    language: 'en',
  };
  expect((await api(app, editor, `/api/settings/views/${id}/schedule`, 'PUT', schedule)).status).toBe(200);
  // Its time passed a minute ago: the next check (once a minute on the job runner) sends it.
  const client = new pg.Client(databaseUrl);
  await client.connect();
  await client.query('update report_schedules set next_run_at = $1 where view_id = $2', [
    new Date(Date.now() - 60_000),
    id,
  ]);
  await client.end();
  const before = mail.received.length;
  const [received] = (await mail.waitFor(before + 1)).slice(before);
  const message = received!.mail;
  expect(message.subject).toMatch(/^Printed weekly: /);
  const pdf = message.attachments.find((a) => a.contentType === 'application/pdf');
  expect(pdf?.filename).toMatch(/-report\.pdf$/);
  expect(message.text).toContain(`The printed report is attached as a PDF (${pdf!.filename}).`);
  const file = info.outputPath('report.pdf');
  writeFileSync(file, pdf!.content);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  expect(text).toContain('Batch report');
  expect(text).toContain('Printed weekly');
  expect(text).toContain('Below target only: any');
  await stop(app);
});
