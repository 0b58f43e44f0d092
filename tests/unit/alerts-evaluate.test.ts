import { describe, expect, it } from 'vitest';
import type { Targets } from '@/lib/contract/targets';
import type { StoredRule } from '@/lib/server/alerts/alerts-store';
import { nextDigestAt } from '@/lib/server/alerts/digest-time';
import { evaluate } from '@/lib/server/alerts/evaluate';
import { organisationDefaults, recipientsOf, retryDelayMs } from '@/lib/server/alerts/watcher';
import { rowMaker, type Row } from '@/lib/explorer/rows';
import { newBatch } from '../helpers/alert-recorder';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-20T12:00:00Z');
const TARGETS: Targets = {
  general: { germination: 85, usable: null, cv: null },
  crops: { Lettuce: { germination: 80, usable: 70, cv: 25 } },
};

function rule(over: Partial<StoredRule>): StoredRule {
  return {
    id: 'r1',
    organisationId: 'o1',
    name: 'Rule',
    when: 'misses-target',
    target: 'any',
    signal: null,
    crop: null,
    search: null,
    silentDays: null,
    silentBy: null,
    recipients: [],
    webhooks: [],
    delivery: 'immediate',
    digestHour: 7,
    paused: false,
    createdAt: new Date(NOW - DAY),
    createdBy: null,
    updatedAt: new Date(NOW - DAY),
    ...over,
  };
}
const rowsOf = (...batches: ReturnType<typeof newBatch>[]): Row[] => {
  const rows: Row[] = [];
  const make = rowMaker(rows);
  for (const b of batches) rows.push(make(b));
  return rows;
};
const all = (drafts: ReturnType<typeof evaluate>) => drafts.map((d) => d.make(new Set(d.keys))!);

describe('a rule judged as the page judges', () => {
  it('misses-target: each kind as the Below target filter, each crop by its own targets; only batches after the rule; search words in any order', () => {
    const rows = rowsOf(
      newBatch(NOW - 2 * DAY, { crop: 'Lettuce', germination: 10, name: 'Old lettuce' }),
      newBatch(NOW - 3600_000, { crop: 'Lettuce', germination: 82, usable: 60, name: 'Lettuce GH1 wk47' }),
      newBatch(NOW - 3500_000, { crop: 'Lettuce', germination: 79, usable: 75, name: 'Lettuce GH2' }),
      newBatch(NOW - 3400_000, { crop: 'Basil', germination: 84, name: 'Basil GH1' }),
      newBatch(NOW - 3300_000, { crop: 'Basil', germination: 86, name: 'Basil fine' }),
    );
    const names = (r: StoredRule) =>
      all(evaluate(r, rows, TARGETS, NOW)).flatMap((m) =>
        m.finding.kind === 'batches' ? m.finding.batches.map((b) => b.batch.batch_name) : [],
      );
    expect(names(rule({}))).toEqual(['Lettuce GH1 wk47', 'Lettuce GH2', 'Basil GH1']);
    expect(names(rule({ target: 'germination' }))).toEqual(['Lettuce GH2', 'Basil GH1']);
    expect(names(rule({ target: 'usable' }))).toEqual(['Lettuce GH1 wk47']);
    expect(names(rule({ crop: 'Basil' }))).toEqual(['Basil GH1']);
    expect(names(rule({ search: 'gh1 lettuce' }))).toEqual(['Lettuce GH1 wk47']);
    const [made] = all(evaluate(rule({ target: 'germination' }), rows, TARGETS, NOW));
    expect(made!.viewQuery.toString()).toBe('from=2026-11-20&to=now&tz=UTC&below=germination');
    expect(made!.finding).toMatchObject({ kind: 'batches', total: 2 });
    // Each batch with the targets it was judged by: its crop's, else the general one.
    const lettuce = made!.finding.kind === 'batches' ? made!.finding.batches[0]! : null;
    expect(lettuce!.verdicts).toEqual([
      { metric: 'germination', target: 80, value: 79, misses: true, crop: 'Lettuce' },
      { metric: 'usable', target: 70, value: 75, misses: false, crop: 'Lettuce' },
      { metric: 'cv', target: 25, value: 10, misses: false, crop: 'Lettuce' },
    ]);
  });

  it('a new key alone makes a finding: what a rule reported before is left out of the next', () => {
    const rows = rowsOf(
      newBatch(NOW - 1000, { germination: 10, name: 'A' }),
      newBatch(NOW - 500, { germination: 20, name: 'B' }),
    );
    const [draft] = evaluate(rule({}), rows, TARGETS, NOW);
    expect(draft!.keys).toHaveLength(2);
    const made = draft!.make(new Set([draft!.keys[1]!]));
    expect(made!.batchIds).toEqual([rows[1]!.id]);
    expect(draft!.make(new Set())).toBeNull();
  });

  it('warnings: the batches with warnings, narrowed by crop', () => {
    const rows = rowsOf(
      newBatch(NOW - 1000, { warnings: true, crop: 'Basil' }),
      newBatch(NOW - 900, { warnings: true, crop: 'Lettuce' }),
      newBatch(NOW - 800, {}),
    );
    const [made] = all(evaluate(rule({ when: 'warnings', target: null, crop: 'Lettuce' }), rows, TARGETS, NOW));
    expect(made!.batchIds).toEqual([rows[1]!.id]);
    expect(made!.viewQuery.get('warn')).toBe('1');
  });

  it('control-signal: the chart’s own limits from its first 50 clean batches; a new batch beyond them fires, a run of 8 fires as a run', () => {
    const steady = Array.from({ length: 60 }, (_, i) =>
      newBatch(NOW - 40 * DAY + i * 3600_000, { crop: 'Tomato', germination: 90 + (i % 2 ? 1 : -1) }),
    );
    const low = newBatch(NOW - 1000, { crop: 'Tomato', germination: 70, name: 'Dropped' });
    const rows = rowsOf(...steady, low);
    const made = all(
      evaluate(rule({ when: 'control-signal', target: 'germination', signal: 'limits' }), rows, TARGETS, NOW),
    );
    expect(made).toHaveLength(1);
    expect(made[0]!.finding).toMatchObject({
      kind: 'control-signal',
      crop: 'Tomato',
      metric: 'germination',
      signal: 'limits',
      total: 1,
      limits: { centre: 90 },
    });
    expect(made[0]!.viewQuery.toString()).toBe('from=now-90d&to=now&tz=UTC&metric=germination&spc=Tomato');

    // Eight in a row just under the centre, each within the limits: a run, not a point beyond.
    const run = Array.from({ length: 8 }, (_, i) =>
      newBatch(NOW - 8000 + i, { crop: 'Tomato', germination: 89.5, name: `Run ${i}` }),
    );
    const runRows = rowsOf(...steady, ...run);
    expect(
      all(evaluate(rule({ when: 'control-signal', target: 'germination', signal: 'limits' }), runRows, TARGETS, NOW)),
    ).toEqual([]);
    const runs = all(
      evaluate(rule({ when: 'control-signal', target: 'germination', signal: 'run' }), runRows, TARGETS, NOW),
    );
    expect(runs.map((m) => m.finding)).toEqual([expect.objectContaining({ signal: 'run', total: 8 })]);
    expect(runs[0]!.viewQuery.get('rules')).toBe('runs');
  });

  it('silent: a crop or a scanner without a batch for N days, once per silence; not one that fell silent long before the rule', () => {
    const rows = rowsOf(
      newBatch(NOW - 5 * DAY, { crop: 'Basil', scanner: 'ann@example.com' }),
      newBatch(NOW - 1 * DAY, { crop: 'Lettuce', scanner: 'bob@example.com' }),
      newBatch(NOW - 50 * DAY, { crop: 'Gone long ago', scanner: 'bob@example.com' }),
    );
    const byCrop = all(
      evaluate(rule({ when: 'silent', target: null, silentDays: 3, silentBy: 'crop' }), rows, TARGETS, NOW),
    );
    expect(byCrop.map((m) => m.finding)).toEqual([
      { kind: 'silent', by: 'crop', who: 'Basil', days: 5, lastAt: new Date(NOW - 5 * DAY).toISOString() },
    ]);
    const byScanner = all(
      evaluate(rule({ when: 'silent', target: null, silentDays: 3, silentBy: 'scanner' }), rows, TARGETS, NOW),
    );
    expect(byScanner.map((m) => m.finding.kind === 'silent' && m.finding.who)).toEqual(['ann@example.com']);
    expect(byScanner[0]!.viewQuery.get('scanner')).toBe('ann@example.com');
    // A rule for one crop watches it even with no batch of it in the window.
    const one = all(
      evaluate(
        rule({ when: 'silent', target: null, silentDays: 3, silentBy: 'crop', crop: 'Rocket' }),
        rows,
        TARGETS,
        NOW,
      ),
    );
    expect(one.map((m) => m.finding)).toEqual([{ kind: 'silent', by: 'crop', who: 'Rocket', days: 3, lastAt: null }]);
    // The same silence has the same key, check after check.
    const [a] = evaluate(rule({ when: 'silent', target: null, silentDays: 3, silentBy: 'crop' }), rows, TARGETS, NOW);
    const [b] = evaluate(
      rule({ when: 'silent', target: null, silentDays: 3, silentBy: 'crop' }),
      rows,
      TARGETS,
      NOW + DAY,
    );
    expect(a!.keys).toEqual(b!.keys);
  });
});

describe('who hears of it, and when', () => {
  const people = [
    {
      id: 'p1',
      email: 'ann@example.com',
      name: 'Ann',
      role: 'editor' as const,
      language: 'de',
      timeZone: 'Europe/Berlin',
    },
    {
      id: 'p2',
      email: 'bob@example.com',
      name: 'Bob',
      role: 'viewer' as const,
      language: 'de',
      timeZone: 'Europe/Berlin',
    },
    { id: 'p3', email: 'cy@example.com', name: 'Cy', role: 'admin' as const, language: 'nl', timeZone: null },
  ];
  it('recipients and subscribers, less the muted; other addresses are outside ones', () => {
    const subscriptions = new Map<string, 'subscribed' | 'muted'>([
      ['p2', 'subscribed'],
      ['p1', 'muted'],
    ]);
    const { people: reached, outside } = recipientsOf(
      { recipients: ['ann@example.com', 'cy@example.com', 'x@outside.example'] },
      { people, subscriptions },
    );
    expect(reached.map((p) => p.id).sort()).toEqual(['p2', 'p3']);
    expect(outside).toEqual(['x@outside.example']);
  });

  it('outside addresses get the language and zone most of the organisation chose', () => {
    expect(organisationDefaults(people)).toEqual({ language: 'de', timeZone: 'Europe/Berlin' });
    expect(organisationDefaults([])).toEqual({ language: 'en', timeZone: 'UTC' });
  });

  it('digests go out at the hour in the recipient’s zone, across a clock change; retries wait longer each time', () => {
    const at = (iso: string, zone: string, cadence: 'hourly' | 'daily', hour = 7) =>
      nextDigestAt(Date.parse(iso), zone, cadence, hour).toISOString();
    expect(at('2026-11-20T12:10:00Z', 'UTC', 'hourly')).toBe('2026-11-20T13:00:00.000Z');
    expect(at('2026-11-20T12:10:00Z', 'Asia/Kolkata', 'hourly')).toBe('2026-11-20T12:30:00.000Z');
    expect(at('2026-11-20T12:10:00Z', 'Europe/Berlin', 'daily')).toBe('2026-11-21T06:00:00.000Z');
    expect(at('2026-06-20T12:10:00Z', 'Europe/Berlin', 'daily')).toBe('2026-06-21T05:00:00.000Z');
    expect(at('2026-11-20T05:59:00Z', 'UTC', 'daily')).toBe('2026-11-20T07:00:00.000Z');
    expect([1, 2, 3, 8, 20].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 3_600_000, 3_600_000]);
  });
});
