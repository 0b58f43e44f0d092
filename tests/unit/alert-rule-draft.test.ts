import { describe, expect, it } from 'vitest';
import type { AlertRule } from '@/lib/contract/alerts';
import { changeBody, createBody, draftOf, emptyDraft, problemOf } from '@/lib/alerts/rule-draft';

const RULE: AlertRule = {
  id: 'r1',
  name: 'Lettuce drift',
  when: 'control-signal',
  target: null,
  signal: 'run',
  crop: 'Lettuce',
  search: null,
  silentDays: null,
  silentBy: null,
  recipients: ['ana@demo.example'],
  webhooks: [{ url: 'https://hooks.example/x', format: 'slack', secretSet: true }],
  delivery: 'daily',
  digestHour: 6,
  paused: false,
  createdAt: '2026-11-01T00:00:00Z',
  createdBy: null,
  updatedAt: '2026-11-01T00:00:00Z',
  subscription: 'none',
  receiving: true,
};

describe('an alert rule’s form and what it sends', () => {
  it('a new rule sends only its own kind’s fields; empty crop and search are none; the digest hour only for a daily digest', () => {
    const draft = { ...emptyDraft('me@demo.example'), name: '  Short batches ', crop: ' ', search: '' };
    expect(createBody(draft)).toEqual({
      when: 'misses-target',
      name: 'Short batches',
      target: 'any',
      crop: null,
      search: null,
      recipients: ['me@demo.example'],
      webhooks: [],
      delivery: 'immediate',
      paused: false,
    });
    const silent = {
      ...draft,
      when: 'silent' as const,
      silentDays: ' 4 ',
      silentBy: 'scanner' as const,
      delivery: 'daily' as const,
      digestHour: 9,
    };
    expect(createBody(silent)).toMatchObject({ when: 'silent', silentDays: 4, silentBy: 'scanner', digestHour: 9 });
    expect(createBody(silent)).not.toHaveProperty('target');
    expect(createBody(silent)).not.toHaveProperty('search');
    expect(createBody({ ...silent, silentDays: '' })).toHaveProperty('silentDays', undefined);
  });

  it('a change keeps the kind, and a saved webhook’s secret unless a new one is typed', () => {
    const draft = draftOf(RULE);
    expect(draft.webhooks[0]).toMatchObject({
      url: 'https://hooks.example/x',
      secret: '',
      secretSet: true,
      savedUrl: 'https://hooks.example/x',
    });
    const body = changeBody(draft);
    expect(body).not.toHaveProperty('when');
    expect(body).toMatchObject({
      target: 'any',
      signal: 'run',
      crop: 'Lettuce',
      digestHour: 6,
      webhooks: [{ url: 'https://hooks.example/x', format: 'slack' }],
    });
    expect(body.webhooks![0]).not.toHaveProperty('secret');
    draft.webhooks[0]!.secret = 'a-new-secret-of-enough-length';
    expect(changeBody(draft).webhooks![0]).toEqual({
      url: 'https://hooks.example/x',
      format: 'slack',
      secret: 'a-new-secret-of-enough-length',
    });
  });

  it('a refusal is placed at the field it names; a recipient’s names the address; anything else is the form’s', () => {
    const draft = { ...draftOf(RULE), recipients: ['ana@demo.example', 'not an address'] };
    expect(problemOf('name: a rule needs a name', draft)).toEqual({ field: 'name', message: 'a rule needs a name' });
    expect(problemOf('webhooks[0].secret: a webhook secret has at least 16 characters', draft)).toEqual({
      field: 'webhooks.0.secret',
      message: 'a webhook secret has at least 16 characters',
    });
    expect(problemOf('webhooks[2]: points at a private address', draft)).toEqual({
      field: 'webhooks.2.url',
      message: 'points at a private address',
    });
    expect(problemOf('recipients[1]: expected an e-mail address such as name@example.com', draft)).toEqual({
      field: 'recipients',
      message: 'not an address: expected an e-mail address such as name@example.com',
    });
    expect(problemOf('silentDays: at least 1 day', draft)).toEqual({ field: 'silentDays', message: 'at least 1 day' });
    expect(problemOf('body: not valid JSON', draft)).toEqual({ field: 'form', message: 'body: not valid JSON' });
    expect(problemOf('too many rules', draft)).toEqual({ field: 'form', message: 'too many rules' });
  });
});
