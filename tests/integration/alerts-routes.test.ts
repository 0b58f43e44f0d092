import { describe, expect, it } from 'vitest';
import * as activity from '@/app/api/admin/activity/route';
import * as alertById from '@/app/api/alerts/[id]/route';
import * as subscription from '@/app/api/alerts/[id]/subscription/route';
import * as history from '@/app/api/alerts/history/route';
import * as historyRead from '@/app/api/alerts/history/read/route';
import * as alerts from '@/app/api/alerts/route';
import * as unsubscribe from '@/app/api/alerts/unsubscribe/route';
import type { AlertHistory, AlertRule, AlertRuleList } from '@/lib/contract/alerts';
import { settingsStore } from '@/lib/server/settings';
import { bffForFile, call, detailOf, json, PEOPLE, request, signIn } from '../helpers/bff';

bffForFile({ SIGNIN_ATTEMPTS_PER_IP: '100000' });

const SECRET = 'a-webhook-secret-of-some-length';
const named = (name: string) => `${name} ${Math.random().toString(36).slice(2, 8)}`;

describe('/api/alerts', () => {
  it('an editor creates, lists, changes and deletes a rule; the activity log records each change; no secret is ever answered', async () => {
    const [editor, admin] = [await signIn(PEOPLE.demo.editor), await signIn(PEOPLE.demo.admin)];
    const name = named('Lettuce below target');
    const created = await call(alerts.POST, '/api/alerts', editor, 'POST', {
      name,
      when: 'misses-target',
      target: 'germination',
      crop: 'Lettuce',
      recipients: [PEOPLE.demo.viewer.email.toUpperCase()],
      webhooks: [{ url: 'https://93.184.215.14/hook', format: 'slack', secret: SECRET }],
      delivery: 'immediate',
    });
    expect(created.status).toBe(201);
    const text = await created.text();
    expect(text).not.toContain(SECRET);
    const rule = JSON.parse(text) as AlertRule;
    expect(rule).toMatchObject({
      name,
      when: 'misses-target',
      target: 'germination',
      signal: null,
      crop: 'Lettuce',
      search: null,
      recipients: [PEOPLE.demo.viewer.email.toLowerCase()],
      webhooks: [{ url: 'https://93.184.215.14/hook', format: 'slack', secretSet: true }],
      delivery: 'immediate',
      digestHour: 7,
      paused: false,
      createdBy: { email: PEOPLE.demo.editor.email },
      subscription: 'none',
      receiving: false,
    });
    // Encrypted at rest: the database holds no trace of the secret.
    const stored = await settingsStore()
      .db.selectFrom('alert_rules')
      .select('webhooks')
      .where('id', '=', rule.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.webhooks)).not.toContain(SECRET);

    const list = await json<AlertRuleList>(await call(alerts.GET, '/api/alerts', editor));
    expect(list.rules.map((r) => r.id)).toContain(rule.id);
    expect(JSON.stringify(list)).not.toContain(SECRET);

    // A change without the secret keeps it; the rule's kind stays.
    const changed = await call(alertById.PATCH, `/api/alerts/${rule.id}`, editor, 'PATCH', {
      delivery: 'daily',
      digestHour: 6,
      webhooks: [{ url: 'https://93.184.215.14/hook', format: 'json' }],
    });
    expect(changed.status).toBe(200);
    expect(await json<AlertRule>(changed)).toMatchObject({
      delivery: 'daily',
      digestHour: 6,
      webhooks: [{ format: 'json', secretSet: true }],
    });
    const rules = await settingsStore().alerts.activeRules((await settingsStore().organisations.bySlug('demo'))!.id);
    const kept = rules.find((r) => r.id === rule.id)!;
    expect(settingsStore().alerts.webhookSecret(kept.organisationId, kept.webhooks[0]!)).toBe(SECRET);

    expect((await call(alertById.DELETE, `/api/alerts/${rule.id}`, editor, 'DELETE')).status).toBe(204);
    expect((await call(alertById.GET, `/api/alerts/${rule.id}`, editor)).status).toBe(404);

    const { entries } = await json<{ entries: { action: string; subject: string; before: unknown; after: unknown }[] }>(
      await call(activity.GET, '/api/admin/activity?limit=1000', admin),
    );
    const mine = entries.filter((e) => e.subject === name);
    expect(mine.map((e) => e.action)).toEqual(['alert_deleted', 'alert_changed', 'alert_created']);
    expect(mine[1]).toMatchObject({ before: { delivery: 'immediate' }, after: { delivery: 'daily', digestHour: 6 } });
    expect(JSON.stringify(mine)).not.toContain(SECRET);
  });

  it('viewers see rules and subscribe but may not write them (403); bad input is 422 naming the field', async () => {
    const [viewer, editor, admin] = [
      await signIn(PEOPLE.demo.viewer),
      await signIn(PEOPLE.demo.editor),
      await signIn(PEOPLE.demo.admin),
    ];
    const body = { name: named('Warnings'), when: 'warnings', recipients: [], delivery: 'hourly' };
    const refused = await call(alerts.POST, '/api/alerts', viewer, 'POST', body);
    expect([refused.status, await detailOf(refused)]).toEqual([
      403,
      'role: creating alert rules needs the editor role; you are a viewer',
    ]);
    const rule = await json<AlertRule>(await call(alerts.POST, '/api/alerts', editor, 'POST', body));
    expect((await call(alertById.PATCH, `/api/alerts/${rule.id}`, viewer, 'PATCH', { paused: true })).status).toBe(403);
    expect((await call(alertById.DELETE, `/api/alerts/${rule.id}`, viewer, 'DELETE')).status).toBe(403);

    const subscribed = await call(subscription.PUT, `/api/alerts/${rule.id}/subscription`, viewer, 'PUT', {
      state: 'subscribed',
    });
    expect(await json<AlertRule>(subscribed)).toMatchObject({ subscription: 'subscribed', receiving: true });
    const muted = await json<AlertRule>(
      await call(subscription.PUT, `/api/alerts/${rule.id}/subscription`, viewer, 'PUT', { state: 'muted' }),
    );
    expect(muted).toMatchObject({ subscription: 'muted', receiving: false });
    // Another person's view of the same rule is their own.
    expect(await json<AlertRule>(await call(alertById.GET, `/api/alerts/${rule.id}`, editor))).toMatchObject({
      subscription: 'none',
    });

    const bad: [unknown, string][] = [
      [{ ...body, name: '' }, 'name: a rule needs a name'],
      [{ ...body, when: 'sometimes' }, 'when:'],
      [{ ...body, when: 'silent' }, 'silentDays: a silent rule needs the number of days without a batch (1 to 365)'],
      [{ ...body, silentDays: 3 }, 'silentDays: only a silent rule takes silentDays'],
      [{ ...body, signal: 'run' }, 'signal: only a control-signal rule takes signal'],
      [
        { ...body, recipients: ['not an address'] },
        'recipients[0]: expected an e-mail address such as name@example.com',
      ],
      [
        { ...body, webhooks: [{ url: 'http://127.0.0.1:9/hook', format: 'json', secret: SECRET }] },
        'webhooks[0].url: points at a loopback or private address',
      ],
      [
        { ...body, webhooks: [{ url: 'https://10.1.2.3/hook', format: 'json', secret: SECRET }] },
        'webhooks[0].url: points at a loopback or private address',
      ],
      [
        { ...body, webhooks: [{ url: 'https://93.184.215.14/hook', format: 'json' }] },
        'webhooks[0].secret: a webhook needs a secret',
      ],
      [
        { ...body, webhooks: [{ url: 'https://93.184.215.14/hook', format: 'xml', secret: SECRET }] },
        'webhooks[0].format:',
      ],
      [{ ...body, delivery: 'weekly' }, 'delivery:'],
      [{ ...body, extra: 1 }, 'extra: '],
    ];
    for (const [input, detail] of bad) {
      const answer = await call(alerts.POST, '/api/alerts', editor, 'POST', input);
      expect(
        [answer.status, (await detailOf(answer)).startsWith(detail)],
        `${JSON.stringify(input)} → ${detail}`,
      ).toEqual([422, true]);
    }
    const kind = await call(alertById.PATCH, `/api/alerts/${rule.id}`, editor, 'PATCH', { when: 'silent' });
    expect(kind.status).toBe(422);

    // An editor names people of the organisation; an administrator any address.
    const outside = await call(alerts.POST, '/api/alerts', editor, 'POST', {
      ...body,
      name: named('Outside'),
      recipients: ['someone@elsewhere.example'],
    });
    expect([outside.status, await detailOf(outside)]).toEqual([
      403,
      'recipients[0]: someone@elsewhere.example is not a person of this organisation; only an administrator may add an outside address',
    ]);
    expect(
      (
        await call(alerts.POST, '/api/alerts', admin, 'POST', {
          ...body,
          name: named('Outside'),
          recipients: ['someone@elsewhere.example'],
        })
      ).status,
    ).toBe(201);
    const taken = await call(alerts.POST, '/api/alerts', editor, 'POST', { ...body, name: rule.name.toUpperCase() });
    expect(taken.status).toBe(409);
  });

  it('an outside address unsubscribes through its link: GET asks, POST does it, a forged token finds nothing', async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const rule = await json<AlertRule>(
      await call(alerts.POST, '/api/alerts', admin, 'POST', {
        name: named('Outside'),
        when: 'warnings',
        recipients: ['grower@outside.example', PEOPLE.demo.editor.email],
        delivery: 'immediate',
      }),
    );
    const stored = (
      await settingsStore().alerts.activeRules((await settingsStore().organisations.bySlug('demo'))!.id)
    ).find((r) => r.id === rule.id)!;
    const token = settingsStore().alerts.unsubscribeToken(
      stored as typeof stored & { unsubscribeKey: string },
      'grower@outside.example',
    );
    const asked = await unsubscribe.GET(
      request(`/api/alerts/unsubscribe?token=${token}`, { headers: { 'accept-language': 'de-DE' } }),
    );
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(
      'Die Benachrichtigung „' + rule.name + '“ nicht mehr an grower@outside.example senden?',
    );
    // Asking changes nothing (mail scanners follow links).
    expect((await json<AlertRule>(await call(alertById.GET, `/api/alerts/${rule.id}`, admin))).recipients).toContain(
      'grower@outside.example',
    );
    const done = await unsubscribe.POST(request(`/api/alerts/unsubscribe?token=${token}`, { method: 'POST' }));
    expect(done.status).toBe(200);
    expect((await json<AlertRule>(await call(alertById.GET, `/api/alerts/${rule.id}`, admin))).recipients).toEqual([
      PEOPLE.demo.editor.email.toLowerCase(),
    ]);
    const forged = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await unsubscribe.GET(request(`/api/alerts/unsubscribe?token=${forged}`))).status).toBe(404);
  });
});

describe('/api/alerts/history', () => {
  it('answers the organisation’s entries and the asker’s unread in-app count; marking read brings it to 0', async () => {
    const viewer = await signIn(PEOPLE.demo.viewer);
    const store = settingsStore();
    const org = (await store.organisations.bySlug('demo'))!;
    const person = (await store.people.byEmail(PEOPLE.demo.viewer.email))!;
    const message = { id: crypto.randomUUID(), firedAt: new Date().toISOString() } as never;
    await store.alertLog.record(org.id, {
      message,
      ruleId: null,
      ruleName: 'A notice',
      batchIds: ['b-1', 'b-2'],
      summary: '2 batches',
      deliveries: [
        { channel: 'in-app', recipient: person.email, personId: person.id },
        {
          channel: 'email',
          recipient: 'x@outside.example',
          personId: null,
          digest: 'daily',
          dueAt: new Date(Date.now() + 3600_000),
        },
      ],
    });
    const answer = await json<AlertHistory>(await call(history.GET, '/api/alerts/history', viewer));
    expect(answer.unread).toBe(1);
    const ours = answer.entries.filter((e) => e.ruleName === 'A notice');
    expect(ours).toHaveLength(2);
    expect(ours.find((e) => e.channel === 'email')).toMatchObject({
      recipient: 'x@outside.example',
      delivered: false,
      detail: 'waits for the daily digest',
      read: null,
      batchIds: ['b-1', 'b-2'],
    });
    // A message without a finding (of an older release): no facts, and the English summary stands.
    expect(ours.find((e) => e.channel === 'email')).toMatchObject({
      state: 'digest',
      digest: 'daily',
      attempts: 0,
      error: null,
      what: null,
      summary: '2 batches',
    });
    expect(ours.find((e) => e.channel === 'in-app')).toMatchObject({
      recipient: person.email,
      delivered: true,
      read: false,
    });
    const mine = await json<AlertHistory>(await call(history.GET, '/api/alerts/history?mine=1', viewer));
    expect(mine.entries.every((e) => e.channel === 'in-app' && e.read === false)).toBe(true);
    expect((await call(history.GET, '/api/alerts/history?limit=0', viewer)).status).toBe(422);
    const read = await call(historyRead.POST, '/api/alerts/history/read', viewer, 'POST', {});
    expect(await json(read)).toEqual({ unread: 0 });
    expect((await json<AlertHistory>(await call(history.GET, '/api/alerts/history', viewer))).unread).toBe(0);
  });
});
