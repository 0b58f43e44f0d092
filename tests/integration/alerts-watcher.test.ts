import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useAlertChannels } from '@/lib/server/alerts/channel-registry';
import { checkOrganisation, deliverDue, OVERLAP_MS } from '@/lib/server/alerts/watcher';
import type { Organisation } from '@/lib/server/org/organisations-store';
import { settingsStore } from '@/lib/server/settings';
import { DEMO_CREDENTIALS, EDGE_CREDENTIALS, OTHER_CREDENTIALS, SPECIAL_CREDENTIALS } from '@/sandbox/organisations';
import { newBatch, recordingChannels } from '../helpers/alert-recorder';
import { bffForFile, PEOPLE } from '../helpers/bff';
import { control } from '../helpers/sandbox';

/** The watcher against the sandbox over HTTP, on the embedded database, sending through recording channels. */
const sandbox = bffForFile({ MAIL_DIR: '/tmp/tsb-alerts-watcher-mail' });
const HOUR = 3_600_000;
const SECRET = 'a-webhook-secret-of-some-length';

let channels: ReturnType<typeof recordingChannels>;
beforeAll(() => {
  channels = recordingChannels();
  useAlertChannels(channels);
});
afterEach(async () => {
  await control(sandbox(), 'POST', '/_sandbox/faults', { outage: false, retryAfterS: null });
  channels.emails.length = 0;
  channels.webhooks.length = 0;
});

const org = async (slug: string) => (await settingsStore().organisations.bySlug(slug)) as Organisation;
const personId = async (email: string) => (await settingsStore().people.byEmail(email))!.id;
const add = (clientId: string, ...batches: ReturnType<typeof newBatch>[]) =>
  control(sandbox(), 'POST', '/_sandbox/edit', { clientId, add: batches });

describe('the watcher', () => {
  it('reports a new below-target batch once: one e-mail per recipient, one webhook, an in-app entry; never again, and nothing from before the rule', async () => {
    const demo = await org('demo');
    // Created before the rule: a new rule reports only what comes after it.
    await add(DEMO_CREDENTIALS.clientId, newBatch(Date.now() - 60_000, { germination: 40, name: 'Before the rule' }));
    const editor = { personId: await personId(PEOPLE.demo.editor.email), role: 'admin' as const };
    const rule = await settingsStore().alerts.create(
      demo.id,
      editor,
      {
        name: 'Below target anywhere',
        when: 'misses-target',
        recipients: [PEOPLE.demo.editor.email, 'grower@outside.example'],
        webhooks: [{ url: 'https://93.184.215.14/hook', format: 'json', secret: SECRET }],
        delivery: 'immediate',
      },
      { allowPrivate: false },
    );
    const viewer = await personId(PEOPLE.demo.viewer.email);
    await settingsStore().alerts.subscribe(demo.id, { personId: viewer, role: 'viewer' }, rule.id, 'subscribed');
    await add(
      DEMO_CREDENTIALS.clientId,
      newBatch(Date.now(), { germination: 42, name: 'Poor lettuce' }),
      newBatch(Date.now(), { germination: 99, name: 'Fine lettuce' }),
      newBatch(Date.now(), { germination: 50, name: 'Other', crop: 'Elsewhere' }),
    );

    expect(await checkOrganisation(demo)).toMatchObject({ events: 1 });
    expect(await deliverDue()).toEqual({ delivered: 4, failed: 0 });
    expect(channels.emails.map((e) => e.to.email).sort()).toEqual(
      ['grower@outside.example', PEOPLE.demo.editor.email, PEOPLE.demo.viewer.email].sort(),
    );
    const [message] = channels.emails[0]!.messages;
    expect(message!.finding).toMatchObject({ kind: 'batches', total: 2 });
    const names = (message!.finding as { batches: { batch: { batch_name: string } }[] }).batches
      .map((b) => b.batch.batch_name)
      .sort();
    expect(names).toEqual(['Other', 'Poor lettuce']);
    expect(message!.viewPath).toMatch(/^\/batches\?from=\d{4}-\d\d-\d\d&to=now&tz=UTC&below=1&org=demo$/);
    const outside = channels.emails.find((e) => e.to.email === 'grower@outside.example')!.to;
    expect(outside).toMatchObject({ personId: null, language: 'en', timeZone: 'UTC' });
    expect(outside.unsubscribePath).toMatch(/^\/api\/alerts\/unsubscribe\?token=/);
    expect(channels.webhooks).toHaveLength(1);
    expect(channels.webhooks[0]!.hook).toEqual({ url: 'https://93.184.215.14/hook', format: 'json', secret: SECRET });

    const history = await settingsStore().alertLog.history(demo.id, viewer, { limit: 50, ruleId: rule.id });
    expect(history.unread).toBe(1);
    expect(
      history.entries
        .filter((e) => e.channel === 'in-app')
        .map((e) => e.recipient)
        .sort(),
    ).toEqual([PEOPLE.demo.editor.email, PEOPLE.demo.viewer.email].sort());
    expect(history.entries.every((e) => e.delivered && e.state === 'delivered' && e.error === null)).toBe(true);
    // What fired, as facts a German or Dutch page says in its own words.
    const what = history.entries[0]!.what as { kind: string; total: number; names: string[] };
    expect(what).toMatchObject({ kind: 'batches', total: 2 });
    expect([...what.names].sort()).toEqual(['Other', 'Poor lettuce']);

    // Checked again (a restart, another instance): nothing new, nothing sent.
    channels.emails.length = 0;
    expect(await checkOrganisation(demo)).toMatchObject({ events: 0 });
    expect(await deliverDue()).toEqual({ delivered: 0, failed: 0 });

    // Muted: the viewer is left out of the next one.
    await settingsStore().alerts.subscribe(demo.id, { personId: viewer, role: 'viewer' }, rule.id, 'muted');
    await add(DEMO_CREDENTIALS.clientId, newBatch(Date.now(), { germination: 30 }));
    await checkOrganisation(demo);
    await deliverDue();
    expect(channels.emails.map((e) => e.to.email).sort()).toEqual(
      ['grower@outside.example', PEOPLE.demo.editor.email].sort(),
    );
    await settingsStore().alerts.delete(demo.id, editor, rule.id);
  });

  it('through an outage: the watermark holds, the administrators are told once after an hour, the batches of meanwhile are reported once after it', async () => {
    const other = await org('other');
    const admin = { personId: await personId(PEOPLE.other.admin.email), role: 'admin' as const };
    await settingsStore().alerts.create(
      other.id,
      admin,
      { name: 'Warnings', when: 'warnings', recipients: [PEOPLE.other.editor.email], delivery: 'immediate' },
      { allowPrivate: false },
    );
    expect(await checkOrganisation(other)).toMatchObject({ events: 0 });

    // Retry-After: 0, so that the client's retries (its backoff, as in production) take no test time.
    await control(sandbox(), 'POST', '/_sandbox/faults', { outage: true, retryAfterS: 0 });
    await add(OTHER_CREDENTIALS.clientId, newBatch(Date.now(), { warnings: true, name: 'Warned during the outage' }));
    expect(await checkOrganisation(other)).toHaveProperty('failed');
    const adminEntries = async () =>
      (await settingsStore().alertLog.history(other.id, admin.personId, { limit: 50, mine: true })).entries;
    expect(await adminEntries()).toEqual([]);
    // An hour on (the watcher's clock advanced), still failing: told once, not at every check.
    expect(await checkOrganisation(other, Date.now() + 2 * HOUR)).toHaveProperty('failed');
    expect(await checkOrganisation(other, Date.now() + 3 * HOUR)).toHaveProperty('failed');
    const told = await adminEntries();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ ruleName: 'Batch Data Service', channel: 'in-app' });
    expect(told[0]!.summary).toContain('the Batch Data Service has not answered since');
    expect(told[0]!.what).toEqual({
      kind: 'outage',
      since: (await settingsStore().alertLog.watchState(other.id))!.failingSince!.toISOString(),
    });
    const state = await settingsStore().alertLog.watchState(other.id);
    expect(state).toMatchObject({ failureReportedAt: expect.any(Date), lastError: expect.any(String) });

    await control(sandbox(), 'POST', '/_sandbox/faults', { outage: false });
    expect(await checkOrganisation(other)).toMatchObject({ events: 1 });
    await deliverDue();
    expect(channels.emails).toHaveLength(1);
    const finding = channels.emails[0]!.messages[0]!.finding as { batches: { batch: { batch_name: string } }[] };
    expect(finding.batches.map((b) => b.batch.batch_name)).toEqual(['Warned during the outage']);
    expect(await settingsStore().alertLog.watchState(other.id)).toMatchObject({
      failingSince: null,
      failureReportedAt: null,
    });
    expect(await checkOrganisation(other)).toMatchObject({ events: 0 });
  });

  it('a digest waits for its hour and then sends everything since in one e-mail; a failed delivery is retried with backoff and the history says so', async () => {
    const edge = await org('edge');
    const admin = { personId: await personId(PEOPLE.edge.admin.email), role: 'admin' as const };
    const daily = await settingsStore().alerts.create(
      edge.id,
      admin,
      {
        name: 'Daily CV',
        when: 'misses-target',
        target: 'cv',
        crop: 'Alertia',
        recipients: [PEOPLE.edge.editor.email],
        delivery: 'daily',
        digestHour: 7,
      },
      { allowPrivate: false },
    );
    const targets = { general: { germination: null, usable: null, cv: 20 }, crops: {} };
    await settingsStore().put(
      edge.id,
      {
        name: 'targets',
        schema: (await import('@/lib/contract/schemas')).TargetsSchema,
        fallback: targets,
        history: true,
      },
      targets,
    );
    await add(EDGE_CREDENTIALS.clientId, newBatch(Date.now(), { cv: 35, name: 'Uneven one' }));
    await checkOrganisation(edge);
    await add(
      EDGE_CREDENTIALS.clientId,
      newBatch(Date.now(), { cv: 40, name: 'Uneven two' }),
      newBatch(Date.now(), { cv: 5, name: 'Even' }),
    );
    await checkOrganisation(edge);
    expect(await deliverDue()).toEqual({ delivered: 0, failed: 0 });
    const waiting = (
      await settingsStore().alertLog.history(edge.id, admin.personId, { limit: 50, ruleId: daily.id })
    ).entries.filter((e) => e.channel === 'email');
    expect(waiting.map((e) => e.detail)).toEqual(['waits for the daily digest', 'waits for the daily digest']);
    expect(waiting.map((e) => [e.state, e.digest, e.attempts, e.error])).toEqual([
      ['digest', 'daily', 0, null],
      ['digest', 'daily', 0, null],
    ]);
    const due = await settingsStore()
      .db.selectFrom('alert_deliveries')
      .select('due_at')
      .where('channel', '=', 'email')
      .where('organisation_id', '=', edge.id)
      .execute();
    // 07:00 in the recipient's zone (no zone in their account, nobody's in the organisation: UTC).
    expect(due.map((d) => [d.due_at.getUTCHours(), d.due_at.getUTCMinutes()])).toEqual([
      [7, 0],
      [7, 0],
    ]);

    // The hour comes; the mail server refuses once.
    await settingsStore()
      .db.updateTable('alert_deliveries')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('organisation_id', '=', edge.id)
      .where('state', '=', 'digest')
      .execute();
    channels.failNext.email = 1;
    expect(await deliverDue()).toEqual({ delivered: 0, failed: 2 });
    const retrying = (
      await settingsStore().alertLog.history(edge.id, admin.personId, { limit: 50, ruleId: daily.id })
    ).entries.filter((e) => e.channel === 'email');
    expect(retrying[0]!.detail).toBe(
      'waits for the daily digest; the last attempt failed: the mail server did not take the e-mail (421 try later)',
    );
    expect(retrying[0]).toMatchObject({
      state: 'digest',
      digest: 'daily',
      attempts: 1,
      error: 'the mail server did not take the e-mail (421 try later)',
    });
    await settingsStore()
      .db.updateTable('alert_deliveries')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('organisation_id', '=', edge.id)
      .where('state', '=', 'digest')
      .execute();
    expect(await deliverDue()).toEqual({ delivered: 2, failed: 0 });
    expect(channels.emails).toHaveLength(1);
    expect(channels.emails[0]!.digest).toMatchObject({ cadence: 'daily' });
    expect(
      channels.emails[0]!.messages.flatMap((m) =>
        (m.finding as { batches: { batch: { batch_name: string } }[] }).batches.map((b) => b.batch.batch_name),
      ),
    ).toEqual(['Uneven one', 'Uneven two']);
  });

  it('a paused rule is not checked; taken out of its pause it reports what comes after, not what came during the pause', async () => {
    const special = await org('special');
    const admin = { personId: await personId(PEOPLE.special.admin.email), role: 'admin' as const };
    const allow = { allowPrivate: false };
    const rule = await settingsStore().alerts.create(
      special.id,
      admin,
      { name: 'Warnings', when: 'warnings', recipients: [PEOPLE.special.editor.email], delivery: 'immediate' },
      allow,
    );
    await checkOrganisation(special);
    await settingsStore().alerts.change(special.id, admin, rule.id, { paused: true }, allow);
    await add(SPECIAL_CREDENTIALS.clientId, newBatch(Date.now(), { warnings: true, name: 'During the pause' }));
    expect(await checkOrganisation(special)).toEqual({ events: 0, batches: 0 });
    await settingsStore().alerts.change(special.id, admin, rule.id, { paused: false }, allow);
    await settingsStore().alertLog.resumeWatch(special.id, rule.id, OVERLAP_MS);
    expect(await checkOrganisation(special)).toMatchObject({ events: 0 });
    await add(SPECIAL_CREDENTIALS.clientId, newBatch(Date.now() + 1000, { warnings: true, name: 'After the pause' }));
    expect(await checkOrganisation(special)).toMatchObject({ events: 1 });
    await deliverDue();
    expect(
      channels.emails.flatMap((e) =>
        e.messages.flatMap((m) =>
          (m.finding as { batches: { batch: { batch_name: string } }[] }).batches.map((b) => b.batch.batch_name),
        ),
      ),
    ).toEqual(['After the pause']);
  });
});
